output "c0" {
  value = cidrhost("10.12.112.0/20", 16)
}

output "c1" {
  value = cidrhost("10.12.112.0/20", 268)
}

output "c2" {
  value = cidrhost("10.12.112.0/20", -1)
}

output "c3" {
  value = cidrhost("10.12.112.0/20", 4096)
}

output "c4" {
  value = cidrhost("10.12.112.0/20", -4097)
}

output "c5" {
  value = cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)
}

output "c6" {
  value = cidrhost("2001:db8::/32", 1)
}

output "c7" {
  value = cidrhost("::/0", 1)
}

output "c8" {
  value = cidrhost("::ffff:10.0.0.0/104", 5)
}

output "c9" {
  value = cidrhost("10.0.0.0/8", 1.5)
}

output "c10" {
  value = cidrhost("010.0.0.0/8", 1)
}

output "c11" {
  value = cidrhost("10.0.0.1/33", 1)
}

output "c12" {
  value = cidrhost("nope", 1)
}

output "c13" {
  value = cidrhost("10.0.0.1", 1)
}

output "c14" {
  value = cidrhost("10.1.2.3/8", 0)
}

output "c15" {
  value = cidrnetmask("172.16.0.0/12")
}

output "c16" {
  value = cidrnetmask("10.0.0.0/32")
}

output "c17" {
  value = cidrnetmask("0.0.0.0/0")
}

output "c18" {
  value = cidrnetmask("fd00::/8")
}

output "c19" {
  value = cidrnetmask("x")
}

output "c20" {
  value = cidrsubnet("172.16.0.0/12", 4, 2)
}

output "c21" {
  value = cidrsubnet("10.1.2.0/24", 4, 15)
}

output "c22" {
  value = cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)
}

output "c23" {
  value = cidrsubnet("10.1.2.0/24", 4, 16)
}

output "c24" {
  value = cidrsubnet("10.1.2.0/24", 9, 0)
}

output "c25" {
  value = cidrsubnet("10.1.2.0/24", 0, 0)
}

output "c26" {
  value = cidrsubnet("10.1.2.0/24", -1, 0)
}

output "c27" {
  value = cidrsubnet("10.1.2.0/24", 4, -1)
}

output "c28" {
  value = cidrsubnet("::ffff:10.0.0.0/104", 8, 3)
}

output "c29" {
  value = cidrsubnet("2001:db8::/32", 32, 1)
}

output "c30" {
  value = cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)
}

output "c31" {
  value = cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)
}

output "c32" {
  value = cidrsubnets("10.1.0.0/16")
}

output "c33" {
  value = cidrsubnets("10.1.0.0/16", 0)
}

output "c34" {
  value = cidrsubnets("10.1.0.0/16", 17)
}

output "c35" {
  value = cidrsubnets("10.1.0.0/30", 1, 1, 1)
}

output "c36" {
  value = cidrsubnets("10.1.0.0/16", 8, 4)
}

output "c37" {
  value = cidrhost("::ffff:10.0.0.0/120", 1)
}

output "c38" {
  value = cidrhost("::ffff:10.0.0.0/104", -1)
}

output "c39" {
  value = cidrhost("::ffff:10.0.0.0/104", 16777216)
}

output "c40" {
  value = cidrhost("::ffff:a00:0/104", 5)
}

output "c41" {
  value = cidrhost("::ffff:0:0/96", 7)
}

output "c42" {
  value = cidrhost("::ffff:10.0.0.0/88", 5)
}

output "c43" {
  value = cidrhost("::ffff:10.1.2.3/128", 0)
}

output "c44" {
  value = cidrnetmask("::ffff:10.0.0.0/104")
}

output "c45" {
  value = cidrnetmask("::ffff:10.0.0.0/88")
}

output "c46" {
  value = cidrsubnet("::ffff:10.0.0.0/100", 4, 2)
}

output "c47" {
  value = cidrsubnet("::ffff:10.0.0.0/88", 8, 3)
}

output "c48" {
  value = cidrsubnet("::ffff:10.0.0.0/104", 24, 1)
}

output "c49" {
  value = cidrsubnets("::ffff:10.0.0.0/104", 8, 8, 16)
}

output "c50" {
  value = cidrsubnets("::ffff:10.0.0.0/88", 8, 16)
}

output "c51" {
  value = cidrsubnets("fd00::/56", 33)
}

output "c52" {
  value = cidrsubnets("fd00::/56", 16, 40)
}
