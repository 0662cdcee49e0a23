output "c0" {
  value = []
}
output "c1" {
  value = [1]
}
output "c2" {
  value = [1,"a",true]
}
output "c3" {
  value = [1,2,]
}
output "c4" {
  value = {}
}
output "c5" {
  value = {a=1}
}
output "c6" {
  value = {a=1, b="x"}
}
output "c7" {
  value = {a=1,b=2,}
}
output "c8" {
  value = {"a"=1}
}
output "c9" {
  value = {"a b"=1}
}
output "c10" {
  value = {a: 1}
}
output "c11" {
  value = {a=1
b=2}
}
output "c12" {
  value = {("k")=1}
}
output "c13" {
  value = {1=1}
}
output "c14" {
  value = {true=1}
}
output "c15" {
  value = {(null)=1}
}
output "c16" {
  value = {([1])=1}
}
output "c17" {
  value = {a=1, a=2}
}
output "c18" {
  value = [[1],["a"]]
}
output "c19" {
  value = [{a=1},{a="b"}]
}
output "c20" {
  value = {a=[1], b={c=true}}
}
output "c21" {
  value = [null]
}
output "c22" {
  value = {a=null}
}
output "c23" {
  value = [[],[]]
}
output "c24" {
  value = [{},{}]
}
output "c25" {
  value = {for=1}
}
output "c26" {
  value = {if=1}
}
output "c27" {
  value = {in=1}
}
output "c28" {
  value = {true=1}
}
output "c29" {
  value = {a-b=1}
}
output "c30" {
  value = {_a=1}
}
output "c31" {
  value = {a=1, "a"=2}
}
output "c32" {
  value = [
1,
2
]
}
output "c33" {
  value = {
  a = 1
  b = 2
}
}
output "c34" {
  value = {a = {b = {c = {d = 1}}}}
}
output "c35" {
  value = [[[[[[1]]]]]]
}
output "c36" {
  value = [1, 2][*]
}
output "c37" {
  value = { "x${1}" = 2 }
}
output "c38" {
  value = { (1 + 1) = 2 }
}
output "c39" {
  value = ["a", ["b", ["c"]]]
}
