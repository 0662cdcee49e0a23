output "c0" {
  value = format("Hello, %s!", "Ander")
}

output "c1" {
  value = format("There are %d lights", 4)
}

output "c2" {
  value = format("%v %v %v", "a", 1, true)
}

output "c3" {
  value = format("%#v %#v", "a", 1)
}

output "c4" {
  value = format("%v", [1, "a"])
}

output "c5" {
  value = format("%v", {a = 1, b = "x"})
}

output "c6" {
  value = format("%v", null)
}

output "c7" {
  value = format("%#v", null)
}

output "c8" {
  value = format("%q", "hello \"world\" <>&")
}

output "c9" {
  value = format("%t", true)
}

output "c10" {
  value = format("%t", "false")
}

output "c11" {
  value = format("%d", 1.5)
}

output "c12" {
  value = format("%d", "12")
}

output "c13" {
  value = format("%d", "x")
}

output "c14" {
  value = format("%b %o %x %X", 10, 10, 255, 255)
}

output "c15" {
  value = format("%#b %#o %#x %#X", 10, 10, 255, 255)
}

output "c16" {
  value = format("%08d|%-8d|%+d|% d|%8d", 42, 42, 42, 42, -42)
}

output "c17" {
  value = format("%.3d|%8.3d|%.0d", 7, 7, 0)
}

output "c18" {
  value = format("%e|%E|%.2e|%.0e", 123456.789, 0.000123, 1.5, 25)
}

output "c19" {
  value = format("%f|%.2f|%.0f|%8.3f|%-8.1f|%08.2f", 3.14159, 3.14159, 2.5, -3.14159, 1.25, 1.5)
}

output "c20" {
  value = format("%g|%G|%.3g|%g|%g", 0.000012345, 1e21, 1234.5678, 100000, 1000000)
}

output "c21" {
  value = format("%g", 0)
}

output "c22" {
  value = format("%f", 0)
}

output "c23" {
  value = format("%e", 0)
}

output "c24" {
  value = format("%v %v %v %v %v", 0.1, 100000, 1000000, 0.00001, 0.0001)
}

output "c25" {
  value = format("%v", 12345678901234567890)
}

output "c26" {
  value = format("%v", 1.25e-10)
}

output "c27" {
  value = format("%v", -0.5)
}

output "c28" {
  value = format("%s", 1.5)
}

output "c29" {
  value = format("%s", true)
}

output "c30" {
  value = format("%s", [1])
}

output "c31" {
  value = format("%s", null)
}

output "c32" {
  value = format("%v|%5v|%-5v|%05v", "ab", "ab", "ab", 1)
}

output "c33" {
  value = format("%5s|%-5s|%.2s|%5.1s", "abc", "abc", "abc", "abc")
}

output "c34" {
  value = format("%.3s", "noël 👍🏽!")
}

output "c35" {
  value = format("%5s|", "👍🏽")
}

output "c36" {
  value = format("%[2]s %[1]s", "a", "b")
}

output "c37" {
  value = format("%[2]s %s", "a", "b", "c")
}

output "c38" {
  value = format("%[3]s", "a", "b")
}

output "c39" {
  value = format("%s %s", "a")
}

output "c40" {
  value = format("%s", "a", "b")
}

output "c41" {
  value = format("no verbs", "a")
}

output "c42" {
  value = format("%y", 1)
}

output "c43" {
  value = format("%i", 1)
}

output "c44" {
  value = format("%", 1)
}

output "c45" {
  value = format("%!", 1)
}

output "c46" {
  value = format("100%%")
}

output "c47" {
  value = format("%*d", 3, 4)
}

output "c48" {
  value = format("%.d", 5)
}

output "c49" {
  value = format("%v", 1e100)
}

output "c50" {
  value = format("%.2f", 0.125)
}

output "c51" {
  value = format("%.2f", 0.375)
}

output "c52" {
  value = format("%.1f", 0.25)
}

output "c53" {
  value = format("%x", -255)
}

output "c54" {
  value = format("%5t", true)
}

output "c55" {
  value = format("%d", 123456789012345678901234567890)
}

output "c56" {
  value = format("%s", "%d")
}

output "c57" {
  value = format("%.1f", 0.15)
}

output "c58" {
  value = format("%.2f", 1.005)
}

output "c59" {
  value = format("%.0f", 0.5)
}

output "c60" {
  value = format("%.3e", 1234.5)
}

output "c61" {
  value = format("%.1f", 0.35)
}

output "c62" {
  value = format("%.20f", 0.1)
}

output "c63" {
  value = format("%.2g", 0.125)
}

output "c64" {
  value = format("%e", 1e-300)
}

output "c65" {
  value = format("%5.1f|%-7.2e|", -0.05, 12345)
}

output "c66" {
  value = format("%+.1e", 0)
}

output "c67" {
  value = format("%x", 1e20)
}

output "c68" {
  value = format("% x", 255)
}

output "c69" {
  value = format("%#v", 1.5)
}

output "c70" {
  value = format("%v", true)
}

output "c71" {
  value = format("%5v", true)
}

output "c72" {
  value = format("%.1v", "abc")
}

output "c73" {
  value = format("%08.3s", "abcdef")
}

output "c74" {
  value = formatlist("Hello, %s!", ["Valentina", "Ander", "Olivia"])
}

output "c75" {
  value = formatlist("%s, %s!", "Salutations", ["Valentina", "Ander"])
}

output "c76" {
  value = formatlist("%s=%d", ["a", "b"], [1, 2])
}

output "c77" {
  value = formatlist("%s=%d", ["a", "b"], [1, 2, 3])
}

output "c78" {
  value = formatlist("%s", [])
}

output "c79" {
  value = formatlist("plain")
}

output "c80" {
  value = formatlist("%s", "single")
}

output "c81" {
  value = formatlist("%d", ["x"])
}

output "c82" {
  value = formatlist("%s-%s", toset(["b", "a"]), ["1", "2"])
}
