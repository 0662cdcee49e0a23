output "c0" {
  value = base64encode("Hello World")
}

output "c1" {
  value = base64encode("")
}

output "c2" {
  value = base64encode("é👍")
}

output "c3" {
  value = base64decode("SGVsbG8gV29ybGQ=")
}

output "c4" {
  value = base64decode("")
}

output "c5" {
  value = base64decode("SGVsbG8")
}

output "c6" {
  value = base64decode("!!!!")
}

output "c7" {
  value = base64decode("/w==")
}

output "c8" {
  value = base64decode("SGVs\nbG8=")
}

output "c9" {
  value = base64decode("SGVsbA==")
}

output "c10" {
  value = base64decode("SGVsbB==")
}

output "c11" {
  value = base64gzip("hello")
}

output "c12" {
  value = base64gzip("")
}

output "c13" {
  value = textencodebase64("Hello World", "UTF-16LE")
}

output "c14" {
  value = textencodebase64("Hello World", "UTF-8")
}

output "c15" {
  value = textencodebase64("Hello", "utf-16be")
}

output "c16" {
  value = textencodebase64("héllo", "ISO-8859-1")
}

output "c17" {
  value = textencodebase64("hi", "nope")
}

output "c18" {
  value = textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")
}

output "c19" {
  value = textdecodebase64("aGk=", "UTF-8")
}

output "c20" {
  value = textdecodebase64("aOls", "ISO-8859-1")
}

output "c21" {
  value = textdecodebase64("aGk=", "nope")
}

output "c22" {
  value = textdecodebase64("!!", "UTF-8")
}

output "c23" {
  value = urlencode("Hello World!")
}

output "c24" {
  value = urlencode("a+b=c&d/e?f#g")
}

output "c25" {
  value = urlencode("~-_.")
}

output "c26" {
  value = urlencode("é 👍")
}

output "c27" {
  value = urlencode("")
}

output "c28" {
  value = jsonencode({hello = "world"})
}

output "c29" {
  value = jsonencode("<a & b>")
}

output "c30" {
  value = jsonencode(["a", 1, true, null])
}

output "c31" {
  value = jsonencode({b = 1, a = 2, "c d" = [1]})
}

output "c32" {
  value = jsonencode(1.5)
}

output "c33" {
  value = jsonencode(1e30)
}

output "c34" {
  value = jsonencode(0.1)
}

output "c35" {
  value = jsonencode(null)
}

output "c36" {
  value = jsonencode("\u2028\u2029\t\n\u0001")
}

output "c37" {
  value = jsonencode(tomap({a = 1}))
}

output "c38" {
  value = jsonencode(toset(["b", "a"]))
}

output "c39" {
  value = jsonencode({})
}

output "c40" {
  value = jsonencode([])
}

output "c41" {
  value = jsonencode("é👍")
}

output "c42" {
  value = jsondecode("{\"hello\": \"world\"}")
}

output "c43" {
  value = jsondecode("true")
}

output "c44" {
  value = [jsondecode("null")]
}

output "c45" {
  value = jsondecode("[1, \"a\", true, null, {\"b\": [] }]")
}

output "c46" {
  value = jsondecode("1.5e3")
}

output "c47" {
  value = jsondecode("12345678901234567890.5")
}

output "c48" {
  value = jsondecode("\"\\u00e9\\n\"")
}

output "c49" {
  value = jsondecode("{\"a\":1,\"a\":2}")
}

output "c50" {
  value = jsondecode("{}")
}

output "c51" {
  value = jsondecode("[]")
}

output "c52" {
  value = jsondecode("")
}

output "c53" {
  value = jsondecode("[1,")
}

output "c54" {
  value = jsondecode("{\"a\" 1}")
}

output "c55" {
  value = jsondecode("tru")
}

output "c56" {
  value = jsondecode("01")
}

output "c57" {
  value = jsondecode("[1] x")
}

output "c58" {
  value = jsondecode("{\"a\": 1,}")
}

output "c59" {
  value = jsondecode("'a'")
}

output "c60" {
  value = csvdecode("a,b,c\n1,2,3\n4,5,6")
}

output "c61" {
  value = csvdecode("a,b\n\"x, y\",\"he said \"\"hi\"\"\"\n")
}

output "c62" {
  value = csvdecode("a,b\n")
}

output "c63" {
  value = csvdecode("a\n1\n\n2")
}

output "c64" {
  value = csvdecode("a,b\r\n1,2\r\n")
}

output "c65" {
  value = csvdecode("a,b\n1,\"multi\nline\"")
}

output "c66" {
  value = csvdecode("")
}

output "c67" {
  value = csvdecode("a,a\n1,2")
}

output "c68" {
  value = csvdecode("a,b\n1,2\n3")
}

output "c69" {
  value = csvdecode("a,b\n1,2,3")
}

output "c70" {
  value = csvdecode("a,\"b\n1,2")
}

output "c71" {
  value = csvdecode("a,b\n1,x\"y")
}

output "c72" {
  value = csvdecode(" a , b \n 1 , 2 ")
}

output "c73" {
  value = yamlencode({a = "b", c = "d"})
}

output "c74" {
  value = yamlencode({a = "line1\nline2", b = "x: y", c = [{d = 1.5, e = []}, "z"], f = {}, i = null, j = true, k = 1e30})
}

output "c75" {
  value = yamlencode("a\nb\n")
}

output "c76" {
  value = yamlencode("a\nb")
}

output "c77" {
  value = yamlencode("a\nb\n\n")
}

output "c78" {
  value = yamlencode(1)
}

output "c79" {
  value = yamlencode(true)
}

output "c80" {
  value = yamlencode(null)
}

output "c81" {
  value = yamlencode("hello")
}

output "c82" {
  value = yamlencode([])
}

output "c83" {
  value = yamlencode({})
}

output "c84" {
  value = yamlencode([[1, 2], [3]])
}

output "c85" {
  value = yamlencode([{a = 1, b = 2}, {c = [1]}])
}

output "c86" {
  value = yamlencode({a = {b = {c = "d"}}})
}

output "c87" {
  value = yamlencode("tab\there")
}

output "c88" {
  value = yamlencode("x\u0001y\u0085z\u00a0")
}

output "c89" {
  value = yamlencode(["é", "👍", "<&>"])
}

output "c90" {
  value = yamlencode({"key with spaces" = 1, "1" = 2, "true" = 3})
}

output "c91" {
  value = yamlencode("a very long string that goes on and on and on past the eighty column limit of the emitter surely")
}

output "c92" {
  value = yamlencode({a = "  leading"})
}

output "c93" {
  value = yamlencode(" leading\nnext")
}

output "c94" {
  value = yamlencode("trailing \nnext")
}

output "c95" {
  value = yamlencode(0.1)
}

output "c96" {
  value = yamlencode(-5)
}

output "c97" {
  value = yamlencode(tomap({b = "1", a = "2"}))
}

output "c98" {
  value = yamlencode(toset(["b", "a"]))
}

output "c99" {
  value = yamldecode("hello: world")
}

output "c100" {
  value = yamldecode("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: 1.5\nh: 010\ni: on\n")
}

output "c101" {
  value = yamldecode("- 1\n- a\n- true\n- null\n")
}

output "c102" {
  value = yamldecode("a: 'quoted'\nb: \"dq\\n\"\nc: |\n  block\n  text\nd: >\n  folded\n  text\n")
}

output "c103" {
  value = yamldecode("true")
}

output "c104" {
  value = yamldecode("")
}

output "c105" {
  value = [yamldecode("~")]
}

output "c106" {
  value = yamldecode("{a: 1, b: [x, y]}")
}

output "c107" {
  value = yamldecode("a: &x 1\nb: *x\n")
}

output "c108" {
  value = yamldecode("base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n")
}

output "c109" {
  value = yamldecode("a: !!str 1\nb: !!int \"2\"\n")
}

output "c110" {
  value = yamldecode("a: 1\n  b: 2")
}

output "c111" {
  value = yamldecode("[1, 2")
}

output "c112" {
  value = yamldecode("key: [")
}

output "c113" {
  value = format("%v", yamldecode(".inf"))
}

output "c114" {
  value = format("%v", yamldecode("-.inf"))
}

output "c115" {
  value = yamldecode("a: 1_000")
}

output "c116" {
  value = yamldecode("a: 0b101")
}

output "c117" {
  value = yamldecode("a: 2001-12-14t21:59:43.10-05:00")
}

output "c118" {
  value = yamldecode("a: 2001-12-14 21:59:43.10 -5")
}

output "c119" {
  value = yamldecode("a: +12")
}

output "c120" {
  value = yamldecode("a: .5")
}

output "c121" {
  value = yamldecode("a: 0o17")
}

output "c122" {
  value = yamldecode("a: 017")
}

output "c123" {
  value = yamldecode("a: Y\nb: n\nc: NO\nd: Off")
}

output "c124" {
  value = yamldecode("a: 1\na: 2")
}

output "c125" {
  value = yamldecode("? [1, 2]\n: x")
}

output "c126" {
  value = yamldecode("---\na: 1\n---\nb: 2\n")
}

output "c127" {
  value = yamldecode("a: 12345678901234567890")
}

output "c128" {
  value = yamldecode("a: 1.0")
}

output "c129" {
  value = yamldecode("a:\n  - b: 1\n    c: 2\n  - d")
}
