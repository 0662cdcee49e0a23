output "c0" {
  value = upper("hello wörld ß")
}

output "c1" {
  value = lower("HELLO WÖRLD İ")
}

output "c2" {
  value = title("hello world-foo bar_baz 1st élan")
}

output "c3" {
  value = title("")
}

output "c4" {
  value = strrev("hello")
}

output "c5" {
  value = strrev("noël 👍🏽 x")
}

output "c6" {
  value = chomp("hello\n\n")
}

output "c7" {
  value = chomp("hello\r\n")
}

output "c8" {
  value = chomp("hello\n\r")
}

output "c9" {
  value = chomp("no newline")
}

output "c10" {
  value = trimspace("  \t hello \n ")
}

output "c11" {
  value = trimspace("\u00a0x\u3000")
}

output "c12" {
  value = trim("?!hello?!", "!?")
}

output "c13" {
  value = trim("aaa", "a")
}

output "c14" {
  value = trimprefix("helloworld", "hello")
}

output "c15" {
  value = trimprefix("helloworld", "world")
}

output "c16" {
  value = trimsuffix("helloworld", "world")
}

output "c17" {
  value = trimsuffix("hello", "")
}

output "c18" {
  value = startswith("hello world", "hello")
}

output "c19" {
  value = startswith("hello world", "world")
}

output "c20" {
  value = endswith("hello world", "world")
}

output "c21" {
  value = endswith("", "")
}

output "c22" {
  value = strcontains("hello world", "o w")
}

output "c23" {
  value = strcontains("hello", "z")
}

output "c24" {
  value = substr("hello world", 1, 4)
}

output "c25" {
  value = substr("hello world", -5, 3)
}

output "c26" {
  value = substr("hello world", -5, -1)
}

output "c27" {
  value = substr("hello", 0, 0)
}

output "c28" {
  value = substr("hello", 10, 2)
}

output "c29" {
  value = substr("hello", 2, 100)
}

output "c30" {
  value = substr("noël 👍🏽!", 3, 3)
}

output "c31" {
  value = substr("hello", -10, 2)
}

output "c32" {
  value = substr("hello", 1.5, 2)
}

output "c33" {
  value = indent(2, "a\nb\nc")
}

output "c34" {
  value = indent(4, "single")
}

output "c35" {
  value = indent(0, "a\nb")
}

output "c36" {
  value = join(", ", ["a", "b", "c"])
}

output "c37" {
  value = join("-", ["a"], ["b", "c"])
}

output "c38" {
  value = join("", [])
}

output "c39" {
  value = join(",")
}

output "c40" {
  value = join(",", ["a", null])
}

output "c41" {
  value = join(",", [1, true])
}

output "c42" {
  value = split(",", "a,b,c")
}

output "c43" {
  value = split(",", "")
}

output "c44" {
  value = split("", "abc")
}

output "c45" {
  value = split(", ", "a, b,c")
}

output "c46" {
  value = replace("hello world", "o", "0")
}

output "c47" {
  value = replace("hello", "", "-")
}

output "c48" {
  value = replace("hello world", "/o(.)/", "<$1>")
}

output "c49" {
  value = replace("abc", "/(?P<x>b)/", "[$x]")
}

output "c50" {
  value = replace("aaa", "/a*/", "b")
}

output "c51" {
  value = replace("abc", "/[/", "x")
}

output "c52" {
  value = replace("hello", "/l/", "$$")
}

output "c53" {
  value = replace("hello", "/(l)/", "${1}x")
}

output "c54" {
  value = replace("hello", "/(l)/", "$1x")
}

output "c55" {
  value = upper(1)
}

output "c56" {
  value = upper(true)
}

output "c57" {
  value = upper(null)
}

output "c58" {
  value = upper([1])
}

output "c59" {
  value = upper("a", "b")
}

output "c60" {
  value = upper()
}

output "c61" {
  value = length("hello")
}

output "c62" {
  value = length("noël 👍🏽")
}

output "c63" {
  value = length("")
}

output "c64" {
  value = format("%s", upper("x"))
}

output "c65" {
  value = core::upper("x")
}
