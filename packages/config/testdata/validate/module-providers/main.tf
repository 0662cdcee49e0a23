module "n" {
  source = "./child"
  providers = {
    terraform = terraform.nope
  }
}

resource "terraform_data" "x" {
  provider = terraform
}
