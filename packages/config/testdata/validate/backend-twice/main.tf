terraform {
  backend "local" {}
}

terraform {
  backend "local" {}
}
