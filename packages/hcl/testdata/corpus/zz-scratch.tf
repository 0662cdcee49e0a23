output "c0" {
  value = yamlencode(({a="line1\nline2", b="x: y", c=[{d=1.5, e=[]}, "z"], f={}, "g h"="é<>&", i=null, j=true, k=1e30, "1"="2", l="  lead"}))
}

output "c1" {
  value = jsonencode(yamlencode("a\nb\n"))
}

output "c2" {
  value = jsonencode(yamlencode(1))
}

output "c3" {
  value = jsonencode(yamlencode([[1,2],[3]]))
}

output "c4" {
  value = jsonencode(yamlencode({a={b={c="d"}}}))
}

output "c5" {
  value = jsonencode(yamlencode("tab\there"))
}

output "c6" {
  value = jsonencode(yamlencode("x\u0001y"))
}

output "c7" {
  value = jsonencode(yamldecode("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: .inf\nh: 010\ni: on\n"))
}

output "c8" {
  value = yamldecode("a: yes\nb: 0x10\nc: 1e3\nd: ~\ne: [1, two]\nf: 2001-12-14\ng: 1.5\nh: 010\ni: on\n")
}

output "c9" {
  value = format("%5.2f|%e|%g|%v|%#v|%q|%x|%08.3f|%+d|%-5s|%05s", 3.14159, 123456.789, 1e21, 1e6, "a", "b<", 255, -3.14159, 5, "ab", "ab")
}

output "c10" {
  value = format("%[2]s", "a", "b")
}

output "c11" {
  value = format("%*d", 5, 3)
}

output "c12" {
  value = format("%i", 5)
}

output "c13" {
  value = format("%y", 5)
}

output "c14" {
  value = format("%", 5)
}

output "c15" {
  value = format("%!", 5)
}

output "c16" {
  value = format("%.s|%.0d|%.3s", "abc", 0, "abcdef")
}

output "c17" {
  value = format("%v %v %v %v", 0.1, 100000, 1000000, 0.00001)
}

output "c18" {
  value = format("%t %v %v", true, null, [1,"a"])
}

output "c19" {
  value = format("%d", 1.5)
}

output "c20" {
  value = format("%s", [1])
}

output "c21" {
  value = base64decode("YQ")
}

output "c22" {
  value = base64decode("/w==")
}

output "c23" {
  value = csvdecode("a,b\n1,2\n3")
}

output "c24" {
  value = csvdecode("a,a\n1,2")
}

output "c25" {
  value = csvdecode("a,\"b\n1,2")
}

output "c26" {
  value = csvdecode("")
}

output "c27" {
  value = jsondecode("{\"a\":1,\"a\":2}")
}

output "c28" {
  value = jsondecode("[1,")
}

output "c29" {
  value = jsondecode("01")
}

output "c30" {
  value = textencodebase64("hi", "UTF-16LE")
}

output "c31" {
  value = textencodebase64("hi", "foo")
}

output "c32" {
  value = urlencode("a b&c/d~é")
}

output "c33" {
  value = base64gzip("hello")
}

output "c34" {
  value = parseint("zz", 36)
}

output "c35" {
  value = parseint("1.5", 10)
}

output "c36" {
  value = parseint("FF", 16)
}
