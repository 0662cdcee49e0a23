resource "terraform_data" "b" {}
variable "v" {}
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
