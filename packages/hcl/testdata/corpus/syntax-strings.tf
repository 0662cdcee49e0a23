output "c0" {
  value = ""
}
output "c1" {
  value = "hello"
}
output "c2" {
  value = "a\nb"
}
output "c3" {
  value = "tab\there"
}
output "c4" {
  value = "quote\"d"
}
output "c5" {
  value = "back\\slash"
}
output "c6" {
  value = "\r\n"
}
output "c7" {
  value = "\u00e9"
}
output "c8" {
  value = "\U0001F600"
}
output "c9" {
  value = "caf\u0065\u0301"
}
output "c10" {
  value = "$${literal}"
}
output "c11" {
  value = "%%{literal}"
}
output "c12" {
  value = "$$${1}"
}
output "c13" {
  value = "a$b"
}
output "c14" {
  value = "100%"
}
output "c15" {
  value = "$"
}
output "c16" {
  value = "%"
}
output "c17" {
  value = "${"nested"}"
}
output "c18" {
  value = "x${1+1}y"
}
output "c19" {
  value = "${true}"
}
output "c20" {
  value = "${1.5}"
}
output "c21" {
  value = "${1/3}"
}
output "c22" {
  value = "${"a"}${"b"}"
}
output "c23" {
  value = "${null}"
}
output "c24" {
  value = "${[1]}"
}
output "c25" {
  value = "${{a=1}}"
}
output "c26" {
  value = "\x"
}
output "c27" {
  value = "unicode ✓ 日本"
}
output "c28" {
  value = "\u00"
}
output "c29" {
  value = "emoji 😀"
}
output "c30" {
  value = "a" == "a"
}
output "c31" {
  value = "${""}"
}
output "c32" {
  value = "${-1}"
}
output "c33" {
  value = "${1e3}"
}
output "c34" {
  value = "a ${"b ${"c"} d"} e"
}
output "c35" {
  value = "\\n"
}
output "c36" {
  value = "a\\${1}"
}
output "c37" {
  value = "~"
}
output "c38" {
  value = "${~ "x" ~}"
}
output "c39" {
  value = "  ${~ "x"}  "
}
output "c40" {
  value = "${"x" ~}  y"
}
output "c41" {
  value = "${5}"
}
output "c42" {
  value = "${"5"}"
}
