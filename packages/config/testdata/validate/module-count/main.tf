module "m" {
  source   = "./child"
  count    = 1
  for_each = {}
}

module "n" {
  source = "./child"
  providers = {
    terraform = terraform.nope
  }
}
