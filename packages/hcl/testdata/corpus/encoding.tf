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
  value = base64gzip(jsonencode(range(200)))
}

output "c14" {
  value = base64gzip(join(",", range(1000)))
}

output "c15" {
  value = base64gzip(replace(format("%0500d", 0), "0", "ab"))
}

output "c16" {
  value = base64gzip(file("${path.module}/files/key.pem"))
}

output "c17" {
  value = base64gzip(yamlencode({a = range(50), b = "some text here", c = {d = [true, false, null]}}))
}

output "c18" {
  value = base64gzip("é👍 unicode ünïcödé 日本語 日本語 日本語")
}

output "c19" {
  value = base64gzip(format("%0300d", 7))
}

output "c20" {
  value = base64gzip("the quick brown fox jumps over the lazy dog; the quick brown fox jumps over the lazy dog again and again and again")
}

output "c21" {
  value = base64gzip("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
}

output "c22" {
  value = textencodebase64("héllo", "windows-1252")
}

output "c23" {
  value = textencodebase64("hi", "US-ASCII")
}

output "c24" {
  value = textencodebase64("日本", "SHIFT_JIS")
}

output "c25" {
  value = textencodebase64("hi", "UTF-16")
}

output "c26" {
  value = textencodebase64("Hello World", "UTF-16LE")
}

output "c27" {
  value = textencodebase64("Hello World", "UTF-8")
}

output "c28" {
  value = textencodebase64("Hello", "utf-16be")
}

output "c29" {
  value = textencodebase64("héllo", "ISO-8859-1")
}

output "c30" {
  value = textencodebase64("hi", "nope")
}

output "c31" {
  value = textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")
}

output "c32" {
  value = textdecodebase64("aGk=", "UTF-8")
}

output "c33" {
  value = textdecodebase64("aOls", "ISO-8859-1")
}

output "c34" {
  value = textdecodebase64("aGk=", "nope")
}

output "c35" {
  value = textdecodebase64("!!", "UTF-8")
}

output "c36" {
  value = textdecodebase64("aGk", "UTF-8")
}

output "c37" {
  value = textdecodebase64("a!b=", "UTF-8")
}

output "c38" {
  value = textdecodebase64("aGk=x", "UTF-8")
}

output "c39" {
  value = textdecodebase64("=abc", "UTF-8")
}

output "c40" {
  value = textdecodebase64("aGVsbG8gd29ybGQ", "UTF-8")
}

output "c41" {
  value = textdecodebase64("/w==", "UTF-8")
}

output "c42" {
  value = urlencode("Hello World!")
}

output "c43" {
  value = urlencode("a+b=c&d/e?f#g")
}

output "c44" {
  value = urlencode("~-_.")
}

output "c45" {
  value = urlencode("é 👍")
}

output "c46" {
  value = urlencode("")
}

output "c47" {
  value = jsonencode({hello = "world"})
}

output "c48" {
  value = jsonencode("<a & b>")
}

output "c49" {
  value = jsonencode(["a", 1, true, null])
}

output "c50" {
  value = jsonencode({b = 1, a = 2, "c d" = [1]})
}

output "c51" {
  value = jsonencode(1.5)
}

output "c52" {
  value = jsonencode(1e30)
}

output "c53" {
  value = jsonencode(0.1)
}

output "c54" {
  value = jsonencode(null)
}

output "c55" {
  value = jsonencode("\u2028\u2029\t\n\u0001")
}

output "c56" {
  value = jsonencode(tomap({a = 1}))
}

output "c57" {
  value = jsonencode(toset(["b", "a"]))
}

output "c58" {
  value = jsonencode({})
}

output "c59" {
  value = jsonencode([])
}

output "c60" {
  value = jsonencode("é👍")
}

output "c61" {
  value = jsondecode("{\"hello\": \"world\"}")
}

output "c62" {
  value = jsondecode("true")
}

output "c63" {
  value = [jsondecode("null")]
}

output "c64" {
  value = jsondecode("[1, \"a\", true, null, {\"b\": [] }]")
}

output "c65" {
  value = jsondecode("1.5e3")
}

output "c66" {
  value = jsondecode("0.1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001")
}

output "c67" {
  value = jsondecode("12345678901234567890.5")
}

output "c68" {
  value = jsondecode("\"\\u00e9\\n\"")
}

output "c69" {
  value = jsondecode("{\"a\":1,\"a\":2}")
}

output "c70" {
  value = jsondecode("{}")
}

output "c71" {
  value = jsondecode("[]")
}

output "c72" {
  value = jsondecode("")
}

output "c73" {
  value = jsondecode("[1,")
}

output "c74" {
  value = jsondecode("{\"a\" 1}")
}

output "c75" {
  value = jsondecode("tru")
}

output "c76" {
  value = jsondecode("01")
}

output "c77" {
  value = jsondecode("[1] x")
}

output "c78" {
  value = jsondecode("{\"a\": 1,}")
}

output "c79" {
  value = jsondecode("'a'")
}

output "c80" {
  value = csvdecode("a,b,c\n1,2,3\n4,5,6")
}

output "c81" {
  value = csvdecode("a,b\n\"x, y\",\"he said \"\"hi\"\"\"\n")
}

output "c82" {
  value = csvdecode("a,b\n")
}

output "c83" {
  value = csvdecode("a\n1\n\n2")
}

output "c84" {
  value = csvdecode("a,b\r\n1,2\r\n")
}

output "c85" {
  value = csvdecode("a,b\n1,\"multi\nline\"")
}

output "c86" {
  value = csvdecode("")
}

output "c87" {
  value = csvdecode("a,a\n1,2")
}

output "c88" {
  value = csvdecode("a,b\n1,2\n3")
}

output "c89" {
  value = csvdecode("a,b\n1,2,3")
}

output "c90" {
  value = csvdecode("a,\"b\n1,2")
}

output "c91" {
  value = csvdecode("a,b\n1,x\"y")
}

output "c92" {
  value = csvdecode(" a , b \n 1 , 2 ")
}

output "c93" {
  value = yamlencode({a = "b", c = "d"})
}

output "c94" {
  value = yamlencode({a = "line1\nline2", b = "x: y", c = [{d = 1.5, e = []}, "z"], f = {}, i = null, j = true, k = 1e30})
}

output "c95" {
  value = yamlencode("a\nb\n")
}

output "c96" {
  value = yamlencode("a\nb")
}

output "c97" {
  value = yamlencode("a\nb\n\n")
}

output "c98" {
  value = yamlencode(1)
}

output "c99" {
  value = yamlencode(true)
}

output "c100" {
  value = yamlencode(null)
}

output "c101" {
  value = yamlencode("hello")
}

output "c102" {
  value = yamlencode([])
}

output "c103" {
  value = yamlencode({})
}

output "c104" {
  value = yamlencode([[1, 2], [3]])
}

output "c105" {
  value = yamlencode([{a = 1, b = 2}, {c = [1]}])
}

output "c106" {
  value = yamlencode({a = {b = {c = "d"}}})
}

output "c107" {
  value = yamlencode("tab\there")
}

output "c108" {
  value = yamlencode("x\u0001y\u0085z\u00a0")
}

output "c109" {
  value = yamlencode(["é", "👍", "<&>"])
}

output "c110" {
  value = yamlencode({"key with spaces" = 1, "1" = 2, "true" = 3})
}

output "c111" {
  value = yamlencode("a very long string that goes on and on and on past the eighty column limit of the emitter surely")
}

output "c112" {
  value = yamlencode({a = "  leading"})
}

output "c113" {
  value = yamlencode(" leading\nnext")
}

output "c114" {
  value = yamlencode("trailing \nnext")
}

output "c115" {
  value = yamlencode(0.1)
}

output "c116" {
  value = yamlencode(-5)
}

output "c117" {
  value = yamlencode(tomap({b = "1", a = "2"}))
}

output "c118" {
  value = yamlencode(toset(["b", "a"]))
}

output "c119" {
  value = yamlencode({apiVersion = "v1", kind = "ConfigMap", metadata = {name = "x", labels = {app = "y"}}, data = {"config.json" = jsonencode({a = 1})}})
}

output "c120" {
  value = yamlencode([{name = "a", ports = [{port = 80}, {port = 443}]}])
}

output "c121" {
  value = yamlencode({a = [[]], b = [{}], c = [[1, [2]]]})
}

output "c122" {
  value = yamlencode({"" = 1})
}

output "c123" {
  value = yamlencode("")
}

output "c124" {
  value = yamlencode({a = "multi\nline\n", b = ["x\ny"]})
}

output "c125" {
  value = yamlencode({a = {b = ["x\ny\n"]}})
}

output "c126" {
  value = yamlencode(["- dash", "#hash", "null", "true", "1.5", "a: b", "{x}"])
}

output "c127" {
  value = yamlencode({a = {b = "a long string inside a nested map that should be folded at the eighty column boundary by go-yaml"}})
}

output "c128" {
  value = yamlencode(["a long string inside a sequence item that should be folded at the eighty column boundary by go-yaml too"])
}

output "c129" {
  value = yamlencode("two  spaces  between  words  in  a  long  string  that  goes  past  the  eighty  column  limit  ok")
}

output "c130" {
  value = yamlencode({"a key that is quite long itself and pushes the value" = "to a place past the eighty column limit for sure"})
}

output "c131" {
  value = yamlencode("line with trailing spaces  \nnext line")
}

output "c132" {
  value = yamlencode("tab\tinside\nmultiline")
}

output "c133" {
  value = yamlencode("\nleading newline")
}

output "c134" {
  value = yamlencode("ends with two\n\n")
}

output "c135" {
  value = yamlencode(1e-7)
}

output "c136" {
  value = yamlencode(123456789012345678901234567890)
}

output "c137" {
  value = yamldecode("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels:\n    app: y\nspec:\n  containers:\n  - name: c\n    image: nginx:1.25\n    ports:\n    - containerPort: 80\n")
}

output "c138" {
  value = yamldecode("a: |-\n  x\n  y\nb: |+\n  x\n\nc: >-\n  folded\n  text\nd: >\n  p1\n\n  p2\n")
}

output "c139" {
  value = yamldecode("a:\nb: ''\nc: \"\"\n")
}

output "c140" {
  value = yamldecode("[1e3, 1.0e+3, .5, -.5, +.5, 0777, -0x1A, 1:20, 12:30:00]")
}

output "c141" {
  value = yamldecode("a: .NaN")
}

output "c142" {
  value = yamldecode("[NULL, Null, ~, null, TRUE, True, False, YES, Off]")
}

output "c143" {
  value = yamldecode("a: !!float 1\nb: !!bool yes\nc: !!null ''\n")
}

output "c144" {
  value = yamldecode("a: !!binary aGVsbG8=")
}

output "c145" {
  value = yamldecode("a: 'it''s'\nb: \"\\u00e9\\t\"\n")
}

output "c146" {
  value = yamldecode("a: 2001-12-14T21:59:43Z\nb: 2001-12-14T21:59:43.123+01:00\n")
}

output "c147" {
  value = yamldecode("- &a [1, 2]\n- *a\n")
}

output "c148" {
  value = yamldecode("a: *missing")
}

output "c149" {
  value = yamldecode("'quoted key': 1\n\"dq key\": 2\n3: three\ntrue: t\nnull: n\n")
}

output "c150" {
  value = yamldecode("a: [1, [2, [3]]]\nb: {c: {d: e}}")
}

output "c151" {
  value = yamldecode("# only a comment")
}

output "c152" {
  value = yamldecode("--- 42")
}

output "c153" {
  value = yamldecode("a: b\n...\n")
}

output "c154" {
  value = yamldecode("a: b #comment\nc: 'd #e'")
}

output "c155" {
  value = yamldecode("a: -\nb: - x")
}

output "c156" {
  value = yamldecode("- a\n-\n- c")
}

output "c157" {
  value = yamldecode("hello: world")
}

output "c158" {
  value = yamldecode("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: 1.5\nh: 010\ni: on\n")
}

output "c159" {
  value = yamldecode("- 1\n- a\n- true\n- null\n")
}

output "c160" {
  value = yamldecode("a: 'quoted'\nb: \"dq\\n\"\nc: |\n  block\n  text\nd: >\n  folded\n  text\n")
}

output "c161" {
  value = yamldecode("true")
}

output "c162" {
  value = yamldecode("")
}

output "c163" {
  value = [yamldecode("~")]
}

output "c164" {
  value = yamldecode("{a: 1, b: [x, y]}")
}

output "c165" {
  value = yamldecode("a: &x 1\nb: *x\n")
}

output "c166" {
  value = yamldecode("base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\n")
}

output "c167" {
  value = yamldecode("a: !!str 1\nb: !!int \"2\"\n")
}

output "c168" {
  value = yamldecode("a: 1\n  b: 2")
}

output "c169" {
  value = yamldecode("[1, 2")
}

output "c170" {
  value = yamldecode("key: [")
}

output "c171" {
  value = format("%v", yamldecode(".inf"))
}

output "c172" {
  value = format("%v", yamldecode("-.inf"))
}

output "c173" {
  value = yamldecode("a: 1_000")
}

output "c174" {
  value = yamldecode("a: 0b101")
}

output "c175" {
  value = yamldecode("a: 2001-12-14t21:59:43.10-05:00")
}

output "c176" {
  value = yamldecode("a: 2001-12-14 21:59:43.10 -5")
}

output "c177" {
  value = yamldecode("a: +12")
}

output "c178" {
  value = yamldecode("a: .5")
}

output "c179" {
  value = yamldecode("a: 0o17")
}

output "c180" {
  value = yamldecode("a: 017")
}

output "c181" {
  value = yamldecode("a: Y\nb: n\nc: NO\nd: Off")
}

output "c182" {
  value = yamldecode("a: 1\na: 2")
}

output "c183" {
  value = yamldecode("? [1, 2]\n: x")
}

output "c184" {
  value = yamldecode("---\na: 1\n---\nb: 2\n")
}

output "c185" {
  value = yamldecode("a: 12345678901234567890")
}

output "c186" {
  value = yamldecode("a: 1.0")
}

output "c187" {
  value = yamldecode("a:\n  - b: 1\n    c: 2\n  - d")
}
