moved {
  from = var.x
  to   = terraform_data.a
}
moved {
  from = terraform_data.a
  to   = module.m
}
moved {
  from = terraform_data.b[0]
  to   = terraform_data.c["k"]
}
removed {
  from = terraform_data.z[0]
}
import {
  to = var.y
  id = "x"
}
import {
  to = terraform_data.q.foo
  id = "x"
}
resource "terraform_data" "a" {}
resource "terraform_data" "c" {}
resource "terraform_data" "q" {}
