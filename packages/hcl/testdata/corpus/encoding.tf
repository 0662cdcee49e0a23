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
  value = base64gzip("the quick brown fox jumps over the lazy dog; the quick brown fox jumps over the lazy dog again and again and again")
}

output "c14" {
  value = base64gzip("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
}

output "c15" {
  value = textencodebase64("héllo", "windows-1252")
}

output "c16" {
  value = textencodebase64("hi", "US-ASCII")
}

output "c17" {
  value = textencodebase64("日本", "SHIFT_JIS")
}

output "c18" {
  value = textencodebase64("hi", "UTF-16")
}

output "c19" {
  value = textencodebase64("Hello World", "UTF-16LE")
}

output "c20" {
  value = textencodebase64("Hello World", "UTF-8")
}

output "c21" {
  value = textencodebase64("Hello", "utf-16be")
}

output "c22" {
  value = textencodebase64("héllo", "ISO-8859-1")
}

output "c23" {
  value = textencodebase64("hi", "nope")
}

output "c24" {
  value = textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")
}

output "c25" {
  value = textdecodebase64("aGk=", "UTF-8")
}

output "c26" {
  value = textdecodebase64("aOls", "ISO-8859-1")
}

output "c27" {
  value = textdecodebase64("aGk=", "nope")
}

output "c28" {
  value = textdecodebase64("!!", "UTF-8")
}

output "c29" {
  value = textdecodebase64("aGk", "UTF-8")
}

output "c30" {
  value = textdecodebase64("a!b=", "UTF-8")
}

output "c31" {
  value = textdecodebase64("aGk=x", "UTF-8")
}

output "c32" {
  value = textdecodebase64("=abc", "UTF-8")
}

output "c33" {
  value = textdecodebase64("aGVsbG8gd29ybGQ", "UTF-8")
}

output "c34" {
  value = textdecodebase64("/w==", "UTF-8")
}

output "c35" {
  value = urlencode("Hello World!")
}

output "c36" {
  value = urlencode("a+b=c&d/e?f#g")
}

output "c37" {
  value = urlencode("~-_.")
}

output "c38" {
  value = urlencode("é 👍")
}

output "c39" {
  value = urlencode("")
}

output "c40" {
  value = jsonencode({hello = "world"})
}

output "c41" {
  value = jsonencode("<a & b>")
}

output "c42" {
  value = jsonencode(["a", 1, true, null])
}

output "c43" {
  value = jsonencode({b = 1, a = 2, "c d" = [1]})
}

output "c44" {
  value = jsonencode(1.5)
}

output "c45" {
  value = jsonencode(1e30)
}

output "c46" {
  value = jsonencode(0.1)
}

output "c47" {
  value = jsonencode(null)
}

output "c48" {
  value = jsonencode("\u2028\u2029\t\n\u0001")
}

output "c49" {
  value = jsonencode(tomap({a = 1}))
}

output "c50" {
  value = jsonencode(toset(["b", "a"]))
}

output "c51" {
  value = jsonencode({})
}

output "c52" {
  value = jsonencode([])
}

output "c53" {
  value = jsonencode("é👍")
}

output "c54" {
  value = jsondecode("{\"hello\": \"world\"}")
}

output "c55" {
  value = jsondecode("true")
}

output "c56" {
  value = [jsondecode("null")]
}

output "c57" {
  value = jsondecode("[1, \"a\", true, null, {\"b\": [] }]")
}

output "c58" {
  value = jsondecode("1.5e3")
}

output "c59" {
  value = jsondecode("0.1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001")
}

output "c60" {
  value = jsondecode("12345678901234567890.5")
}

output "c61" {
  value = jsondecode("\"\\u00e9\\n\"")
}

output "c62" {
  value = jsondecode("{\"a\":1,\"a\":2}")
}

output "c63" {
  value = jsondecode("{}")
}

output "c64" {
  value = jsondecode("[]")
}

output "c65" {
  value = jsondecode("")
}

output "c66" {
  value = jsondecode("[1,")
}

output "c67" {
  value = jsondecode("{\"a\" 1}")
}

output "c68" {
  value = jsondecode("tru")
}

output "c69" {
  value = jsondecode("01")
}

output "c70" {
  value = jsondecode("[1] x")
}

output "c71" {
  value = jsondecode("{\"a\": 1,}")
}

output "c72" {
  value = jsondecode("'a'")
}

output "c73" {
  value = csvdecode("a,b,c\n1,2,3\n4,5,6")
}

output "c74" {
  value = csvdecode("a,b\n\"x, y\",\"he said \"\"hi\"\"\"\n")
}

output "c75" {
  value = csvdecode("a,b\n")
}

output "c76" {
  value = csvdecode("a\n1\n\n2")
}

output "c77" {
  value = csvdecode("a,b\r\n1,2\r\n")
}

output "c78" {
  value = csvdecode("a,b\n1,\"multi\nline\"")
}

output "c79" {
  value = csvdecode("")
}

output "c80" {
  value = csvdecode("a,a\n1,2")
}

output "c81" {
  value = csvdecode("a,b\n1,2\n3")
}

output "c82" {
  value = csvdecode("a,b\n1,2,3")
}

output "c83" {
  value = csvdecode("a,\"b\n1,2")
}

output "c84" {
  value = csvdecode("a,b\n1,x\"y")
}

output "c85" {
  value = csvdecode(" a , b \n 1 , 2 ")
}

output "c86" {
  value = yamlencode({a = "b", c = "d"})
}

output "c87" {
  value = yamlencode({a = "line1\nline2", b = "x: y", c = [{d = 1.5, e = []}, "z"], f = {}, i = null, j = true, k = 1e30})
}

output "c88" {
  value = yamlencode("a\nb\n")
}

output "c89" {
  value = yamlencode("a\nb")
}

output "c90" {
  value = yamlencode("a\nb\n\n")
}

output "c91" {
  value = yamlencode(1)
}

output "c92" {
  value = yamlencode(true)
}

output "c93" {
  value = yamlencode(null)
}

output "c94" {
  value = yamlencode("hello")
}

output "c95" {
  value = yamlencode([])
}

output "c96" {
  value = yamlencode({})
}

output "c97" {
  value = yamlencode([[1, 2], [3]])
}

output "c98" {
  value = yamlencode([{a = 1, b = 2}, {c = [1]}])
}

output "c99" {
  value = yamlencode({a = {b = {c = "d"}}})
}

output "c100" {
  value = yamlencode("tab\there")
}

output "c101" {
  value = yamlencode("x\u0001y\u0085z\u00a0")
}

output "c102" {
  value = yamlencode(["é", "👍", "<&>"])
}

output "c103" {
  value = yamlencode({"key with spaces" = 1, "1" = 2, "true" = 3})
}

output "c104" {
  value = yamlencode("a very long string that goes on and on and on past the eighty column limit of the emitter surely")
}

output "c105" {
  value = yamlencode({a = "  leading"})
}

output "c106" {
  value = yamlencode(" leading\nnext")
}

output "c107" {
  value = yamlencode("trailing \nnext")
}

output "c108" {
  value = yamlencode(0.1)
}

output "c109" {
  value = yamlencode(-5)
}

output "c110" {
  value = yamlencode(tomap({b = "1", a = "2"}))
}

output "c111" {
  value = yamlencode(toset(["b", "a"]))
}

output "c112" {
  value = yamlencode({apiVersion = "v1", kind = "ConfigMap", metadata = {name = "x", labels = {app = "y"}}, data = {"config.json" = jsonencode({a = 1})}})
}

output "c113" {
  value = yamlencode([{name = "a", ports = [{port = 80}, {port = 443}]}])
}

output "c114" {
  value = yamlencode({a = [[]], b = [{}], c = [[1, [2]]]})
}

output "c115" {
  value = yamlencode({"" = 1})
}

output "c116" {
  value = yamlencode("")
}

output "c117" {
  value = yamlencode({a = "multi\nline\n", b = ["x\ny"]})
}

output "c118" {
  value = yamlencode({a = {b = ["x\ny\n"]}})
}

output "c119" {
  value = yamlencode(["- dash", "#hash", "null", "true", "1.5", "a: b", "{x}"])
}

output "c120" {
  value = yamlencode({a = {b = "a long string inside a nested map that should be folded at the eighty column boundary by go-yaml"}})
}

output "c121" {
  value = yamlencode(["a long string inside a sequence item that should be folded at the eighty column boundary by go-yaml too"])
}

output "c122" {
  value = yamlencode("two  spaces  between  words  in  a  long  string  that  goes  past  the  eighty  column  limit  ok")
}

output "c123" {
  value = yamlencode({"a key that is quite long itself and pushes the value" = "to a place past the eighty column limit for sure"})
}

output "c124" {
  value = yamlencode("line with trailing spaces  \nnext line")
}

output "c125" {
  value = yamlencode("tab\tinside\nmultiline")
}

output "c126" {
  value = yamlencode("\nleading newline")
}

output "c127" {
  value = yamlencode("ends with two\n\n")
}

output "c128" {
  value = yamlencode(1e-7)
}

output "c129" {
  value = yamlencode(123456789012345678901234567890)
}

output "c130" {
  value = yamldecode("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels:\n    app: y\nspec:\n  containers:\n  - name: c\n    image: nginx:1.25\n    ports:\n    - containerPort: 80\n")
}

output "c131" {
  value = yamldecode("a: |-\n  x\n  y\nb: |+\n  x\n\nc: >-\n  folded\n  text\nd: >\n  p1\n\n  p2\n")
}

output "c132" {
  value = yamldecode("a:\nb: ''\nc: \"\"\n")
}

output "c133" {
  value = yamldecode("[1e3, 1.0e+3, .5, -.5, +.5, 0777, -0x1A, 1:20, 12:30:00]")
}

output "c134" {
  value = yamldecode("a: .NaN")
}

output "c135" {
  value = yamldecode("[NULL, Null, ~, null, TRUE, True, False, YES, Off]")
}

output "c136" {
  value = yamldecode("a: !!float 1\nb: !!bool yes\nc: !!null ''\n")
}

output "c137" {
  value = yamldecode("a: !!binary aGVsbG8=")
}

output "c138" {
  value = yamldecode("a: 'it''s'\nb: \"\\u00e9\\t\"\n")
}

output "c139" {
  value = yamldecode("a: 2001-12-14T21:59:43Z\nb: 2001-12-14T21:59:43.123+01:00\n")
}

output "c140" {
  value = yamldecode("- &a [1, 2]\n- *a\n")
}

output "c141" {
  value = yamldecode("a: *missing")
}

output "c142" {
  value = yamldecode("'quoted key': 1\n\"dq key\": 2\n3: three\ntrue: t\nnull: n\n")
}

output "c143" {
  value = yamldecode("a: [1, [2, [3]]]\nb: {c: {d: e}}")
}

output "c144" {
  value = yamldecode("# only a comment")
}

output "c145" {
  value = yamldecode("--- 42")
}

output "c146" {
  value = yamldecode("a: b\n...\n")
}

output "c147" {
  value = yamldecode("a: b #comment\nc: 'd #e'")
}

output "c148" {
  value = yamldecode("a: -\nb: - x")
}

output "c149" {
  value = yamldecode("- a\n-\n- c")
}

output "c150" {
  value = yamldecode("hello: world")
}

output "c151" {
  value = yamldecode("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: 1.5\nh: 010\ni: on\n")
}

output "c152" {
  value = yamldecode("- 1\n- a\n- true\n- null\n")
}

output "c153" {
  value = yamldecode("a: 'quoted'\nb: \"dq\\n\"\nc: |\n  block\n  text\nd: >\n  folded\n  text\n")
}

output "c154" {
  value = yamldecode("true")
}

output "c155" {
  value = yamldecode("")
}

output "c156" {
  value = [yamldecode("~")]
}

output "c157" {
  value = yamldecode("{a: 1, b: [x, y]}")
}

output "c158" {
  value = yamldecode("a: &x 1\nb: *x\n")
}

output "c159" {
  value = yamldecode("base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n")
}

output "c160" {
  value = yamldecode("a: !!str 1\nb: !!int \"2\"\n")
}

output "c161" {
  value = yamldecode("a: 1\n  b: 2")
}

output "c162" {
  value = yamldecode("[1, 2")
}

output "c163" {
  value = yamldecode("key: [")
}

output "c164" {
  value = format("%v", yamldecode(".inf"))
}

output "c165" {
  value = format("%v", yamldecode("-.inf"))
}

output "c166" {
  value = yamldecode("a: 1_000")
}

output "c167" {
  value = yamldecode("a: 0b101")
}

output "c168" {
  value = yamldecode("a: 2001-12-14t21:59:43.10-05:00")
}

output "c169" {
  value = yamldecode("a: 2001-12-14 21:59:43.10 -5")
}

output "c170" {
  value = yamldecode("a: +12")
}

output "c171" {
  value = yamldecode("a: .5")
}

output "c172" {
  value = yamldecode("a: 0o17")
}

output "c173" {
  value = yamldecode("a: 017")
}

output "c174" {
  value = yamldecode("a: Y\nb: n\nc: NO\nd: Off")
}

output "c175" {
  value = yamldecode("a: 1\na: 2")
}

output "c176" {
  value = yamldecode("? [1, 2]\n: x")
}

output "c177" {
  value = yamldecode("---\na: 1\n---\nb: 2\n")
}

output "c178" {
  value = yamldecode("a: 12345678901234567890")
}

output "c179" {
  value = yamldecode("a: 1.0")
}

output "c180" {
  value = yamldecode("a:\n  - b: 1\n    c: 2\n  - d")
}
