resource "aws_instance" "a" {
  ami = "${var.ami}"
  name = "${var.prefix}-x"
  both = "${var.a}${var.b}"
  call = "${lookup(var.m, "k")}"
  nested = "${lookup(var.m, "${var.k}")}"
  multi = "${
    var.a
    ? var.b
    : var.c
  }"
  paren = "${(
    var.a
  )}"
  obj = { inner = "${var.not_unwrapped}" }
  tilde = "${~ var.t ~}"
}
variable "l" { type = list }
variable "m" {
  type = map
}
variable "s" { type = set }
variable "q" { type = "string" }
variable "ql" { type = "list" }
variable "qm" { type = "map" }
variable "other" { type = "number" }
locals {
  type = list
}
