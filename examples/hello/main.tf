# magma's hello world: a Terraform working directory that `magma` plans, applies and
# destroys in place of `terraform`. This file is the native part: the `random` provider is
# built into magma, so nothing is downloaded. aws.tf and ssm/ add AWS SSM parameters
# (hashicorp/aws 5.100.0) against a local fake AWS endpoint; `pnpm hello` starts it.
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "pets" {
  description = "How many names to make."
  type        = number
  default     = 2
}

# A suffix shared by every name; changing its length replaces it (and the names after it).
resource "random_id" "suffix" {
  byte_length = 3
}

resource "random_string" "name" {
  count   = var.pets
  length  = 6
  upper   = false
  special = false
  keepers = { suffix = random_id.suffix.hex }
}

resource "random_password" "token" {
  length = 20
}

output "names" {
  value = [for s in random_string.name : "${s.result}-${random_id.suffix.hex}"]
}

output "token" {
  value     = random_password.token.result
  sensitive = true
}
