resource "terraform_data" "a" {
  inptu = 1
  id    = "x"
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "b" {
  triggers {
  }
}

data "terraform_remote_state" "s" {
  config = {}
}
