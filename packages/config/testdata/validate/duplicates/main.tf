variable "a" {}
variable "a" {}

locals {
  x = 1
}
locals {
  x = 2
}

output "o" {
  value = 1
}
output "o" {
  value = 2
}

resource "terraform_data" "r" {}
resource "terraform_data" "r" {}
