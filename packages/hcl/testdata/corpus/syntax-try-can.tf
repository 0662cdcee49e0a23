output "c0" {
  value = try(1)
}
output "c1" {
  value = try([1][5], 2)
}
output "c2" {
  value = try({a=1}.b, "default")
}
output "c3" {
  value = try(null.a, null)
}
output "c4" {
  value = can([1][0])
}
output "c5" {
  value = can([1][5])
}
output "c6" {
  value = can({a=1}.b)
}
output "c7" {
  value = try([1][5], [2][5], 3)
}
output "c8" {
  value = try([1][5])
}
output "c9" {
  value = can(1/0)
}
output "c10" {
  value = try("a"+1, 0)
}
output "c11" {
  value = can("1"+1)
}
output "c12" {
  value = can("x"+1)
}
output "c13" {
  value = try({a={b=1}}.a.b, 0)
}
output "c14" {
  value = try("${[1]}", "fallback")
}
output "c15" {
  value = try(true ? 1 : "x", 2)
}
output "c16" {
  value = can([for x in 1: x])
}
output "c17" {
  value = try([for x in 1: x], [])
}
output "c18" {
  value = core::try([1][9], 5)
}
output "c19" {
  value = core::can(null)
}
output "c20" {
  value = try(null, 1)
}
output "c21" {
  value = can(null)
}
