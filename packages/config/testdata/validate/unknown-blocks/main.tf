resorce "terraform_data" "a" {}

resource "terraform_data" {}

variable "v" {
  tpye = string
}

output "o" {
  valeu = 1
}
