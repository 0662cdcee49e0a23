module "m" {
  source = "modules/thing"
}
