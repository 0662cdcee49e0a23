resource "terraform_data" "a" {
  input = count.index
}

resource "terraform_data" "b" {
  input = each.key
}

locals {
  z = count.index
}

resource "terraform_data" "c" {
  count    = 2
  for_each = toset(["a"])
}
