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
  value = "${1"
}
output "c19" {
  value = "%{ bogus }"
}
output "c20" {
  value = "%{ else }"
}
output "c21" {
  value = "%{ endfor }"
}
output "c22" {
  value = "%{ for x in [1] }"
}
output "c23" {
  value = "%{ if }x%{ endif }"
}
output "c24" {
  value = [1,,2]
}
output "c25" {
  value = {,}
}
output "c26" {
  value = f(,)
}
output "c27" {
  value = try(1,,2)
}
output "c28" {
  value = {a = }
}
output "c29" {
  value = {= 1}
}
output "c30" {
  value = [1][
}
output "c31" {
  value = [1][0
}
output "c32" {
  value = a..b
}
output "c33" {
  value = !
}
output "c34" {
  value = -
}
output "c35" {
  value = 1 +* 2
}
output "c36" {
  value = "\u12"
}
output "c37" {
  value = "\U1F600"
}
output "c38" {
  value = <<EOT
never closed
}
output "c39" {
  value = {a = 1,, b = 2}
}
output "c40" {
  value = (1))
}
output "c41" {
  value = [1]]
}
output "c42" {
  value = null.
}
output "c43" {
  value = "${}"
}
output "c44" {
  value = "%{}"
}
output "c45" {
  value = f(1...)
}
output "c46" {
  value = {a = 1}.*.
}
output "c47" {
  value = x[*
}
output "c48" {
  value = x.*[
}
output "c49" {
  value = [for in [1]: 1]
}
output "c50" {
  value = [for x, in [1]: 1]
}
output "c51" {
  value = [for x y in [1]: 1]
}
output "c52" {
  value = 1 ** 2
}
output "c53" {
  value = 1 ^ 2
}
output "c54" {
  value = ~1
}
output "c55" {
  value = "%{ if true }a%{ else }b%{ else }c%{ endif }"
}
output "c56" {
  value = "%{ for x in [1] }%{ else }%{ endfor }"
}
output "c57" {
  value = "%{ if true }%{ endfor }"
}
output "c58" {
  value = "%{ iff true }x%{ endif }"
}
output "c59" {
  value = "${1 2}"
}
output "c60" {
  value = "${a:b}"
}
output "c61" {
  value = [1, 2
}
output "c62" {
  value = {a = 1
}
output "c63" {
  value = f(1
}
output "c64" {
  value = {a b}
}
output "c65" {
  value = {a = 1,
}
output "c66" {
  value = "%{ if true x }y%{ endif }"
}
output "c67" {
  value = a = 1
}
