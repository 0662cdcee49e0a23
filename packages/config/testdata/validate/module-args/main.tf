module "child" {
  source = "./child"
  nmae   = "x"
}
