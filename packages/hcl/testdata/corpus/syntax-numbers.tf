output "c0" {
  value = 0
}
output "c1" {
  value = 1
}
output "c2" {
  value = -1
}
output "c3" {
  value = 42
}
output "c4" {
  value = 1.5
}
output "c5" {
  value = -0.5
}
output "c6" {
  value = 1e3
}
output "c7" {
  value = 1E3
}
output "c8" {
  value = 1e-3
}
output "c9" {
  value = 2.5e+2
}
output "c10" {
  value = 123456789012345678901234567890
}
output "c11" {
  value = 0.1
}
output "c12" {
  value = 0.30000000000000004
}
output "c13" {
  value = 1.0
}
output "c14" {
  value = 007
}
output "c15" {
  value = -0
}
output "c16" {
  value = 1/3
}
output "c17" {
  value = 2/3
}
output "c18" {
  value = -1/3
}
output "c19" {
  value = 10/4
}
output "c20" {
  value = 1/7*7
}
output "c21" {
  value = 0.1+0.2
}
output "c22" {
  value = 0.1*3
}
output "c23" {
  value = 1e20*1e20
}
output "c24" {
  value = 9007199254740993
}
output "c25" {
  value = 9007199254740992+1
}
output "c26" {
  value = 2*3.5
}
output "c27" {
  value = 7%3
}
output "c28" {
  value = -7%3
}
output "c29" {
  value = 7%-3
}
output "c30" {
  value = 5.5%2
}
output "c31" {
  value = -5.5%2
}
output "c32" {
  value = 1e-10
}
output "c33" {
  value = 3.14159265358979323846264338327950288419716939937510
}
output "c34" {
  value = 100000000000000000000*3
}
output "c35" {
  value = 0/0
}
output "c36" {
  value = 5%0
}
output "c37" {
  value = 1.23456789e30
}
output "c38" {
  value = 123e-5
}
output "c39" {
  value = 0.000001
}
output "c40" {
  value = 1-0.9
}
output "c41" {
  value = 2-3
}
output "c42" {
  value = -(-1)
}
output "c43" {
  value = --1
}
output "c44" {
  value = - 1
}
output "c45" {
  value = 1--1
}
output "c46" {
  value = 10/3*3
}
output "c47" {
  value = "x${1/0}"
}
output "c48" {
  value = "x${-1/0}"
}
output "c49" {
  value = 0%0
}
output "c50" {
  value = 1%0.5
}
output "c51" {
  value = -1%0
}
output "c52" {
  value = 2.5%1.5
}
output "c53" {
  value = 1e300*1e300
}
output "c54" {
  value = "1" + "2"
}
