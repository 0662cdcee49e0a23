variable "region" {
  default = "eu-central-1"
}

resource "terraform_data" "trigger" {
  input = "overridden-${local.prefix}"
}
