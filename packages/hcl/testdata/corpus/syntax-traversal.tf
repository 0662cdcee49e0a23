output "c0" {
  value = [1,2,3][0]
}
output "c1" {
  value = [1,2,3][2]
}
output "c2" {
  value = [1,2,3][3]
}
output "c3" {
  value = [1,2,3][-1]
}
output "c4" {
  value = [1,2,3][1.5]
}
output "c5" {
  value = [1,2,3]["1"]
}
output "c6" {
  value = [1,2,3]["a"]
}
output "c7" {
  value = [1,2,3].1
}
output "c8" {
  value = {a=1}.a
}
output "c9" {
  value = {a=1}["a"]
}
output "c10" {
  value = {a=1}.b
}
output "c11" {
  value = {a=1}["b"]
}
output "c12" {
  value = {a={b={c=1}}}.a.b.c
}
output "c13" {
  value = {a=[1,2]}.a[1]
}
output "c14" {
  value = [[1,2],[3,4]][1][0]
}
output "c15" {
  value = [[1,2],[3,4]].1.0
}
output "c16" {
  value = {"a b"=1}["a b"]
}
output "c17" {
  value = null.a
}
output "c18" {
  value = null[0]
}
output "c19" {
  value = [1][null]
}
output "c20" {
  value = "abc".a
}
output "c21" {
  value = true[0]
}
output "c22" {
  value = [][0]
}
output "c23" {
  value = {a=1}[1]
}
output "c24" {
  value = {a=1}[[1]]
}
output "c25" {
  value = [1][[0]]
}
output "c26" {
  value = {a=1, b=2}["${"a"}"]
}
output "c27" {
  value = [1,2,3][1+1]
}
output "c28" {
  value = {a=[{b="x"}]}.a[0].b
}
output "c29" {
  value = ["a","b"][true ? 1 : 0]
}
output "c30" {
  value = {for k in ["x"]: k => k}.x
}
output "c31" {
  value = [for x in [1,2]: x][1]
}
output "c32" {
  value = [{a=1}].a
}
output "c33" {
  value = ({a=1}).a
}
output "c34" {
  value = [1,2,3][0.0]
}
output "c35" {
  value = [1,2,3]["0.0"]
}
output "c36" {
  value = {("k")=1}.k
}
output "c37" {
  value = {a=1}.a.b
}
