output "c0" {
  value = 1 +
 2
}
output "c1" {
  value = (
1 +
2
)
}
output "c2" {
  value = [
  1,
  2,
]
}
output "c3" {
  value = {
  a = 1,
  b = 2
}
}
output "c4" {
  value = { a = 1, b = 2 }
}
output "c5" {
  value = true ?
 1 :
 2
}
output "c6" {
  value = (true
 ? 1
 : 2)
}
output "c7" {
  value = [for x in [1, 2]:
  x
]
}
output "c8" {
  value = "${<<EOT
in heredoc
EOT
}"
}
output "c9" {
  value = "${"${"deep"}"}"
}
output "c10" {
  value = [[1, 2], [3]][*][*]
}
output "c11" {
  value = [{a = [{b = 1}, {b = 2}]}][*].a[*].b
}
output "c12" {
  value = [for x in [{a = 1}, {a = 2}] : x.a]
}
output "c13" {
  value = {for i, v in ["x", "y"] : v => i if i > 0}
}
output "c14" {
  value = [for s in ["a", "b"] : "${s}!"]
}
output "c15" {
  value = {a = {b = [1, 2, {c = "d"}]}}.a.b[2].c
}
output "c16" {
  value = [1, 2, 3][1 + 1]
}
output "c17" {
  value = {"key with spaces" = true}
}
output "c18" {
  value = {a = 1}.a == 1 ? "yes" : "no"
}
output "c19" {
  value = !true || !false && true
}
output "c20" {
  value = -1 * -1
}
output "c21" {
  value = 2 * -3
}
output "c22" {
  value = [1, 2] == [1, 2] && {a = 1} != {a = 2}
}
output "c23" {
  value = "%{ if 1 == 1 }eq%{ else }ne%{ endif }"
}
output "c24" {
  value = "${1}${2}${3}"
}
output "c25" {
  value = "a" 

}
output "c26" {
  value = (((((1)))))
}
output "c27" {
  value = [for x in [[1, [2]]]: x[1][0]]
}
output "c28" {
  value = {for k, v in {a = [1], b = [2]}: k => v[0]}
}
output "c29" {
  value = [for k, v in {a = {n = 1}}: v.n]
}
output "c30" {
  value = {"${"k"}${1}" = 1}
}
output "c31" {
  value = [true ? "a" : "b", false ? 1 : 2]
}
output "c32" {
  value = [null, 1]
}
output "c33" {
  value = [for x in [null, 1]: x]
}
output "c34" {
  value = {a = null}.a
}
output "c35" {
  value = [{a = 1}, {a = 2}][1].a
}
output "c36" {
  value = ["a", "b"][*]
}
output "c37" {
  value = ([1, 2])[*]
}
output "c38" {
  value = {for x in ["a"]: x => [x]...}
}
output "c39" {
  value = [for x in [1] : { v = x }]
}
output "c40" {
  value = true && (1 > 2 || 3 < 4)
}
output "c41" {
  value = 1 < 2 == 2 > 1
}
output "c42" {
  value = "x" == "x" == true
}
output "c43" {
  value = [for i in [0, 1, 2] : i % 2 == 0]
}
