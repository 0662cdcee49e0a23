output "c0" {
  value = [{a=1},{a=2}][*].a
}
output "c1" {
  value = [{a=1},{a=2}].*.a
}
output "c2" {
  value = [{a={b=1}},{a={b=2}}][*].a.b
}
output "c3" {
  value = [{a=[1,2]},{a=[3]}][*].a[0]
}
output "c4" {
  value = [[1,2],[3,4]][*][0]
}
output "c5" {
  value = {a=1}[*].a
}
output "c6" {
  value = {a=1}.*.a
}
output "c7" {
  value = null[*]
}
output "c8" {
  value = null[*].a
}
output "c9" {
  value = [][*].a
}
output "c10" {
  value = [1,2][*]
}
output "c11" {
  value = "x"[*]
}
output "c12" {
  value = [{a=1},{b=2}][*].a
}
output "c13" {
  value = [{a=1},{a="x"}][*].a
}
output "c14" {
  value = [{a={b=[1]}}][*].a.b[0]
}
output "c15" {
  value = [{a=1}][*]
}
output "c16" {
  value = [{a=1},{a=2}].*.a[0]
}
output "c17" {
  value = [{a=[{b=1}]}][*].a[*].b
}
output "c18" {
  value = [[{a=1}]][*][0].a
}
output "c19" {
  value = [for x in [{a=1}][*].a: x + 1]
}
output "c20" {
  value = [{a=1},{a=2}][*]["a"]
}
output "c21" {
  value = 1[*]
}
output "c22" {
  value = true[*]
}
output "c23" {
  value = [{a=null}][*].a
}
output "c24" {
  value = [{a={b=1}}].*.a.b
}
output "c25" {
  value = [{a=1},{a=2}][*].b
}
