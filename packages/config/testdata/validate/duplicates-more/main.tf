data "terraform_remote_state" "s" {
  backend = "local"
}
data "terraform_remote_state" "s" {
  backend = "local"
}
module "m" {
  source = "./child"
}
module "m" {
  source = "./child"
}
provider "terraform" {}
provider "terraform" {}
terraform {
  required_providers {
    foo = {
      source = "hashicorp/foo"
    }
  }
}
terraform {
  required_providers {
    foo = {
      source = "hashicorp/foo"
    }
  }
}
resource "terraform_data" "1bad" {}
