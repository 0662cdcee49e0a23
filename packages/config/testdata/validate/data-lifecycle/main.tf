data "terraform_remote_state" "s" {
  backend = "local"
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = [input, all]
  }
}
