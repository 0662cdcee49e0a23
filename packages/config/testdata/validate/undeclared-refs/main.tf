variable "region" {
  type = string
}

locals {
  name = "x-${var.regoin}"
  other = local.nmae
}

resource "terraform_data" "a" {
  input = terraform_data.b.output
}

output "o" {
  value = module.net.id
}

output "p" {
  value = data.terraform_remote_state.s.outputs
}
