output "c0" {
  value = true ? [1, 2] : ["a"]
}
output "c1" {
  value = false ? [1, 2] : ["a"]
}
output "c2" {
  value = true ? {a = 1, b = "x"} : {a = "y", b = 2}
}
output "c3" {
  value = true ? [[1]] : [["a", "b"]]
}
output "c4" {
  value = true ? {a = [1]} : {a = ["x", "y"]}
}
output "c5" {
  value = false ? {a = {b = 1}} : {a = {b = true}}
}
output "c6" {
  value = true ? 1 : true
}
output "c7" {
  value = true ? "a" : false
}
output "c8" {
  value = true ? [1] : [true]
}
output "c9" {
  value = true ? null : [1]
}
output "c10" {
  value = false ? null : {a = 1}
}
output "c11" {
  value = true ? [null] : [1]
}
output "c12" {
  value = true ? {a = null} : {a = 1}
}
output "c13" {
  value = true ? [] : [1]
}
output "c14" {
  value = false ? [] : [1, "a"]
}
output "c15" {
  value = true ? {} : {a = 1}
}
output "c16" {
  value = true ? [{a = 1}] : [{a = "b"}]
}
output "c17" {
  value = true ? [{a = 1}] : [{b = 1}]
}
output "c18" {
  value = true ? {x = [1, 2]} : {x = [3]}
}
output "c19" {
  value = true ? [1, [2]] : [3, [4, 5]]
}
output "c20" {
  value = true ? 1.5 : "2"
}
output "c21" {
  value = false ? 1.5 : "2"
}
output "c22" {
  value = true ? "1.5" : 2
}
output "c23" {
  value = true ? ["a", 1] : ["b", 2]
}
output "c24" {
  value = true ? ["a", 1] : [2, "b"]
}
output "c25" {
  value = true ? [[]] : [[1]]
}
output "c26" {
  value = true ? {a = []} : {a = [1]}
}
output "c27" {
  value = false ? {a = 1} : {a = 1, b = 2}
}
output "c28" {
  value = true ? true : null
}
output "c29" {
  value = true ? [[1, "a"]] : [[2, "b"]]
}
