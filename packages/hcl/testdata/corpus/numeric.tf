output "c0" {
  value = abs(23)
}

output "c1" {
  value = abs(-12.4)
}

output "c2" {
  value = abs(0)
}

output "c3" {
  value = ceil(5.1)
}

output "c4" {
  value = ceil(-5.1)
}

output "c5" {
  value = ceil(5)
}

output "c6" {
  value = floor(4.9)
}

output "c7" {
  value = floor(-4.1)
}

output "c8" {
  value = floor(4)
}

output "c9" {
  value = log(50, 10)
}

output "c10" {
  value = log(16, 2)
}

output "c11" {
  value = log(1, 10)
}

output "c12" {
  value = pow(3, 2)
}

output "c13" {
  value = pow(4, 0)
}

output "c14" {
  value = pow(2, 0.5)
}

output "c15" {
  value = pow(2, -1)
}

output "c16" {
  value = pow(10, 20)
}

output "c17" {
  value = max(12, 54, 3)
}

output "c18" {
  value = max(-1.5, -1.25)
}

output "c19" {
  value = max()
}

output "c20" {
  value = min(12, 54, 3)
}

output "c21" {
  value = min(0.1, 0.2)
}

output "c22" {
  value = max([12, 54, 3]...)
}

output "c23" {
  value = signum(-13)
}

output "c24" {
  value = signum(0)
}

output "c25" {
  value = signum(344)
}

output "c26" {
  value = signum(-0.5)
}

output "c27" {
  value = parseint("100", 10)
}

output "c28" {
  value = parseint("FF", 16)
}

output "c29" {
  value = parseint("ff", 16)
}

output "c30" {
  value = parseint("-10", 16)
}

output "c31" {
  value = parseint("+10", 2)
}

output "c32" {
  value = parseint("1011111011101111", 2)
}

output "c33" {
  value = parseint("aA", 62)
}

output "c34" {
  value = parseint("zz", 36)
}

output "c35" {
  value = parseint("ZZ", 36)
}

output "c36" {
  value = parseint("12", 2)
}

output "c37" {
  value = parseint("FF", 10)
}

output "c38" {
  value = parseint("", 10)
}

output "c39" {
  value = parseint("10", 1)
}

output "c40" {
  value = parseint("10", 63)
}

output "c41" {
  value = parseint(10, 10)
}

output "c42" {
  value = parseint("123456789012345678901234567890", 10)
}

output "c43" {
  value = sum([1, 2, 3])
}

output "c44" {
  value = sum([1.5, 2.25])
}

output "c45" {
  value = sum([])
}

output "c46" {
  value = sum(["1", "2"])
}

output "c47" {
  value = sum([1, "x"])
}

output "c48" {
  value = sum(toset([1, 2, 2]))
}

output "c49" {
  value = sum({a = 1})
}

output "c50" {
  value = sum(1)
}

output "c51" {
  value = sum([0.1, 0.2])
}

output "c52" {
  value = range(3)
}

output "c53" {
  value = range(1, 4)
}

output "c54" {
  value = range(1, 8, 2)
}

output "c55" {
  value = range(1, 4, 0.5)
}

output "c56" {
  value = range(4, 1)
}

output "c57" {
  value = range(10, 5, -2)
}

output "c58" {
  value = range(-3)
}

output "c59" {
  value = range(0)
}

output "c60" {
  value = range(1, 1)
}

output "c61" {
  value = range(1, 2, 0)
}

output "c62" {
  value = range(1, 0, 1)
}

output "c63" {
  value = range(0, 1, -1)
}

output "c64" {
  value = range(1, 2, 3, 4)
}

output "c65" {
  value = range()
}

output "c66" {
  value = range(2000)
}

output "c67" {
  value = range(0, 1, 0.1)
}

output "c68" {
  value = range(0, 3, 0.3)
}

output "c69" {
  value = sum([0.1, 0.2, 0.3, 0.4])
}

output "c70" {
  value = range(1, 0, -0.25)
}

output "c71" {
  value = sum([1e-10, 1e10])
}

output "c72" {
  value = range(0.1, 0.5, 0.1)
}

output "c73" {
  value = sum([0.7, 0.1, 0.1])
}

output "c74" {
  value = abs("-5")
}

output "c75" {
  value = abs("x")
}

output "c76" {
  value = ceil(1e30)
}

output "c77" {
  value = floor(-0.5)
}

output "c78" {
  value = abs(1.0000000000000000000001)
}

output "c79" {
  value = max(1, "2")
}
