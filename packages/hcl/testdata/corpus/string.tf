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
  value = upper("ǆemal ŉ ﬁ ß ÿ")
}

output "c5" {
  value = lower("ẞ ΣΑΣ Ǆ İ K")
}

output "c6" {
  value = title("ǆemal ǉubljana ŉx")
}

output "c7" {
  value = title("hello\tworld\nnew-line (paren) [br] o'neil 3d")
}

output "c8" {
  value = upper("ǅ")
}

output "c9" {
  value = strrev("hello")
}

output "c10" {
  value = strrev("noël 👍🏽 x")
}

output "c11" {
  value = chomp("hello\n\n")
}

output "c12" {
  value = chomp("hello\r\n")
}

output "c13" {
  value = chomp("hello\n\r")
}

output "c14" {
  value = chomp("no newline")
}

output "c15" {
  value = trimspace("  \t hello \n ")
}

output "c16" {
  value = trimspace("\u00a0x\u3000")
}

output "c17" {
  value = trim("?!hello?!", "!?")
}

output "c18" {
  value = trim("aaa", "a")
}

output "c19" {
  value = trimprefix("helloworld", "hello")
}

output "c20" {
  value = trimprefix("helloworld", "world")
}

output "c21" {
  value = trimsuffix("helloworld", "world")
}

output "c22" {
  value = trimsuffix("hello", "")
}

output "c23" {
  value = startswith("hello world", "hello")
}

output "c24" {
  value = startswith("hello world", "world")
}

output "c25" {
  value = endswith("hello world", "world")
}

output "c26" {
  value = endswith("", "")
}

output "c27" {
  value = strcontains("hello world", "o w")
}

output "c28" {
  value = strcontains("hello", "z")
}

output "c29" {
  value = substr("hello world", 1, 4)
}

output "c30" {
  value = substr("hello world", -5, 3)
}

output "c31" {
  value = substr("hello world", -5, -1)
}

output "c32" {
  value = substr("hello", 0, 0)
}

output "c33" {
  value = substr("hello", 10, 2)
}

output "c34" {
  value = substr("hello", 2, 100)
}

output "c35" {
  value = substr("noël 👍🏽!", 3, 3)
}

output "c36" {
  value = substr("hello", -10, 2)
}

output "c37" {
  value = substr("hello", 1.5, 2)
}

output "c38" {
  value = indent(2, "a\nb\nc")
}

output "c39" {
  value = indent(4, "single")
}

output "c40" {
  value = indent(0, "a\nb")
}

output "c41" {
  value = join(", ", ["a", "b", "c"])
}

output "c42" {
  value = join("-", ["a"], ["b", "c"])
}

output "c43" {
  value = join("", [])
}

output "c44" {
  value = join(",")
}

output "c45" {
  value = join(",", ["a", null])
}

output "c46" {
  value = join(",", [1, true])
}

output "c47" {
  value = split(",", "a,b,c")
}

output "c48" {
  value = split(",", "")
}

output "c49" {
  value = split("", "abc")
}

output "c50" {
  value = split(", ", "a, b,c")
}

output "c51" {
  value = replace("hello world", "o", "0")
}

output "c52" {
  value = replace("hello", "", "-")
}

output "c53" {
  value = replace("hello world", "/o(.)/", "<$1>")
}

output "c54" {
  value = replace("abc", "/(?P<x>b)/", "[$x]")
}

output "c55" {
  value = replace("aaa", "/a*/", "b")
}

output "c56" {
  value = replace("abc", "/[/", "x")
}

output "c57" {
  value = replace("hello", "/l/", "$$")
}

output "c58" {
  value = replace("hello", "/(l)/", "${1}x")
}

output "c59" {
  value = replace("hello", "/(l)/", "$1x")
}

output "c60" {
  value = upper(1)
}

output "c61" {
  value = upper(true)
}

output "c62" {
  value = upper(null)
}

output "c63" {
  value = upper([1])
}

output "c64" {
  value = upper("a", "b")
}

output "c65" {
  value = upper()
}

output "c66" {
  value = length("hello")
}

output "c67" {
  value = length("noël 👍🏽")
}

output "c68" {
  value = length("")
}

output "c69" {
  value = format("%s", upper("x"))
}

output "c70" {
  value = core::upper("x")
}
