provider "terraform" {
  alias = "a"
}

provider "terraform" {
  alias = "a"
}

terraform {
  required_providers {
    foo = {
      source = "not/a/valid/source"
    }
    bar = {
      sauce = "hashicorp/bar"
    }
  }
}
