output "c0" {
  value = 1 +
}
output "c1" {
  value = (1
}
output "c2" {
  value = [1 2]
}
output "c3" {
  value = {a = 1 b = 2}
}
output "c4" {
  value = "abc
}
output "c5" {
  value = "a\qb"
}
output "c6" {
  value = 1 2
}
output "c7" {
  value = a.
}
output "c8" {
  value = [for x in [1]]
}
output "c9" {
  value = {for x in [1]: x}
}
output "c10" {
  value = [for x in [1]: x => x]
}
output "c11" {
  value = {for x in [1]: x => x if}
}
output "c12" {
  value = 1 ? 2
}
output "c13" {
  value = 'a'
}
output "c14" {
  value = `a`
}
output "c15" {
  value = 1 & 2
}
output "c16" {
  value = 1 | 2
}
output "c17" {
  value = 1 ; 2
}
output "c18" {
  value = {a.b = 1}
}
output "c19" {
  value = "${1"
}
output "c20" {
  value = "%{ bogus }"
}
output "c21" {
  value = "%{ else }"
}
output "c22" {
  value = "%{ endfor }"
}
output "c23" {
  value = "%{ for x in [1] }"
}
output "c24" {
  value = "%{ if }x%{ endif }"
}
output "c25" {
  value = [1,,2]
}
output "c26" {
  value = {,}
}
output "c27" {
  value = f(,)
}
output "c28" {
  value = try(1,,2)
}
output "c29" {
  value = {a = }
}
output "c30" {
  value = {= 1}
}
output "c31" {
  value = [1][
}
output "c32" {
  value = [1][0
}
output "c33" {
  value = a..b
}
output "c34" {
  value = !
}
output "c35" {
  value = -
}
output "c36" {
  value = 1 +* 2
}
output "c37" {
  value = "\u12"
}
output "c38" {
  value = "\U1F600"
}
output "c39" {
  value = <<EOT
never closed
}
output "c40" {
  value = {a = 1,, b = 2}
}
output "c41" {
  value = (1))
}
output "c42" {
  value = [1]]
}
output "c43" {
  value = null.
}
output "c44" {
  value = "${}"
}
output "c45" {
  value = "%{}"
}
output "c46" {
  value = f(1...)
}
output "c47" {
  value = {a = 1}.*.
}
output "c48" {
  value = x[*
}
output "c49" {
  value = x.*[
}
output "c50" {
  value = [for in [1]: 1]
}
output "c51" {
  value = [for x, in [1]: 1]
}
output "c52" {
  value = [for x y in [1]: 1]
}
