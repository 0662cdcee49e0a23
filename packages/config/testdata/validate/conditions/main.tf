variable "a" {
  type = string
  default = "x"
  validation {
    condition     = true
    error_message = "lowercase no period"
  }
}
variable "b" {
  type = string
  default = "x"
  validation {
    condition     = local.z == ""
    error_message = "Fine."
  }
}
locals {
  z = ""
}
resource "terraform_data" "x" {
  input = var.a
  lifecycle {
    ignore_changes = [inputs]
    replace_triggered_by = [var.a, terraform_data.y.id]
  }
}
resource "terraform_data" "y" {}
