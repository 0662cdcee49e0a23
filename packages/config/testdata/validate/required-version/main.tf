terraform {
  required_version = "< 1.0.0"
}

resource "terraform_data" "a" {
  input = var.nope
}
