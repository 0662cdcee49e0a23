output "c0" {
  value = true ? 1 : 2
}
output "c1" {
  value = false ? 1 : 2
}
output "c2" {
  value = true ? "a" : 1
}
output "c3" {
  value = false ? "a" : 1
}
output "c4" {
  value = true ? [1] : ["a"]
}
output "c5" {
  value = true ? {a=1} : {a="x"}
}
output "c6" {
  value = true ? {a=1} : {b=1}
}
output "c7" {
  value = true ? [1,2] : [1]
}
output "c8" {
  value = true ? null : 1
}
output "c9" {
  value = false ? null : 1
}
output "c10" {
  value = true ? 1 : null
}
output "c11" {
  value = null ? 1 : 2
}
output "c12" {
  value = "true" ? 1 : 2
}
output "c13" {
  value = "yes" ? 1 : 2
}
output "c14" {
  value = 1 ? 1 : 2
}
output "c15" {
  value = true ? true : "x"
}
output "c16" {
  value = false ? [1] : []
}
output "c17" {
  value = true ? {} : {a=1}
}
output "c18" {
  value = true ? [for x in [1]: x] : [2]
}
output "c19" {
  value = 1 > 0 ? "pos" : "neg"
}
output "c20" {
  value = true ? (false ? 1 : 2) : 3
}
output "c21" {
  value = true ? 1 : false ? 2 : 3
}
output "c22" {
  value = false ? 1 : false ? 2 : 3
}
output "c23" {
  value = true ? [[1]] : [["a"]]
}
output "c24" {
  value = true ? {a={b=1}} : {a={b="s"}}
}
output "c25" {
  value = true ? [1,"a"] : [2,"b"]
}
output "c26" {
  value = true ? [1] : {a=1}
}
output "c27" {
  value = true ? "1" : true
}
output "c28" {
  value = false ? {a=1} : {a=[1]}
}
output "c29" {
  value = true ? {a=[1]} : {a=["x", "y"]}
}
output "c30" {
  value = true ? [1, 2] : [true, false, true]
}
output "c31" {
  value = true ? null : null
}
