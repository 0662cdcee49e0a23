output "a" {
  value = terraform_data.nope.id
}

module "g" {
  source = "./grand"
}
