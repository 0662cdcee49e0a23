output "c0" {
  value = "%{if true}yes%{endif}"
}
output "c1" {
  value = "%{if false}yes%{endif}"
}
output "c2" {
  value = "%{if false}yes%{else}no%{endif}"
}
output "c3" {
  value = "%{ if 1 > 2 }a%{ else }b%{ endif }"
}
output "c4" {
  value = "%{for x in ["a","b"]}${x}%{endfor}"
}
output "c5" {
  value = "%{for i, x in ["a","b"]}${i}=${x};%{endfor}"
}
output "c6" {
  value = "%{for k, v in {b=2,a=1}}${k}${v}%{endfor}"
}
output "c7" {
  value = "%{for x in []}${x}%{endfor}"
}
output "c8" {
  value = "a %{~ if true ~} b %{~ endif ~} c"
}
output "c9" {
  value = "x  ${~ 1}"
}
output "c10" {
  value = "${1 ~}  x"
}
output "c11" {
  value = "%{ for x in [1,2,3] ~} ${x} %{~ endfor }"
}
output "c12" {
  value = "%{if "true"}s%{endif}"
}
output "c13" {
  value = "%{if 1}s%{endif}"
}
output "c14" {
  value = "%{if null}s%{endif}"
}
output "c15" {
  value = "%{for x in null}${x}%{endfor}"
}
output "c16" {
  value = "%{for x in 1}${x}%{endfor}"
}
output "c17" {
  value = "%{ for x in [[1],[2]] }${x[0]}%{ endfor }"
}
output "c18" {
  value = "%{ if true }${"a"}%{ endif }${"b"}"
}
output "c19" {
  value = "%{ for x in [1,2] }%{ if x > 1 }big%{ else }small%{ endif }%{ endfor }"
}
output "c20" {
  value = "${ [1,2][0] }"
}
output "c21" {
  value = "%{for x in ["b","a"]}${x}%{endfor}"
}
output "c22" {
  value = "%{ endif }"
}
output "c23" {
  value = "%{ bogus }"
}
output "c24" {
  value = "%{ if true }unterminated"
}
output "c25" {
  value = "%{for x in [null]}${x}%{endfor}"
}
output "c26" {
  value = "%{for x in [[1]]}${x}%{endfor}"
}
output "c27" {
  value = "${true ? "a" : "b"}"
}
output "c28" {
  value = "a%{if true} ${"b"} %{endif}c"
}
output "c29" {
  value = "%{for x in {a=1}}${x}%{endfor}"
}
