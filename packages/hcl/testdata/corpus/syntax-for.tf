output "c0" {
  value = [for x in [1,2,3]: x * 2]
}
output "c1" {
  value = [for i, x in ["a","b"]: "${i}${x}"]
}
output "c2" {
  value = [for x in [1,2,3]: x if x != 2]
}
output "c3" {
  value = {for x in ["a","b"]: x => "v${x}"}
}
output "c4" {
  value = {for k, v in {a=1,b=2}: k => v * 10}
}
output "c5" {
  value = {for k, v in {a=1,b=2}: v => k}
}
output "c6" {
  value = {for x in ["a","b","a"]: x => x...}
}
output "c7" {
  value = {for x in ["a","b","a"]: x => x}
}
output "c8" {
  value = [for k, v in {b=1,a=2}: k]
}
output "c9" {
  value = [for x in []: x]
}
output "c10" {
  value = {for x in []: x => x}
}
output "c11" {
  value = [for x in null: x]
}
output "c12" {
  value = [for x in 1: x]
}
output "c13" {
  value = [for x in "abc": x]
}
output "c14" {
  value = [for x in [1]: x if "true"]
}
output "c15" {
  value = [for x in [1]: x if 1]
}
output "c16" {
  value = [for x in [1]: x if null]
}
output "c17" {
  value = {for x in [1,2]: x => x}
}
output "c18" {
  value = {for x in [null]: x => 1}
}
output "c19" {
  value = {for x in [[1]]: x => 1}
}
output "c20" {
  value = [for x in [[1,2],[3]]: [for y in x: y * 10]]
}
output "c21" {
  value = {for i, x in ["a","b"]: x => i}
}
output "c22" {
  value = [for x in {a=1,b="x"}: x]
}
output "c23" {
  value = [for k, v in ["a"]: k]
}
output "c24" {
  value = {for k, v in {a=1,b=2}: k => v if v > 1}
}
output "c25" {
  value = [for x in [1,2,3]: x if x > 5]
}
output "c26" {
  value = {for x in [1,2,1]: "k${x}" => x...}
}
output "c27" {
  value = [for x in ["a","b"] : x]
}
output "c28" {
  value = [
  for x in [1,2]:
  x
]
}
output "c29" {
  value = { for x in [1] : x => x if true }
}
output "c30" {
  value = [for x in [true, false]: !x]
}
output "c31" {
  value = [for x in [1,2]: x => x]
}
output "c32" {
  value = {for x in [1,2]: x}
}
