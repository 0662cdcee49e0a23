resource "terraform_data" "a" {
  depends_on = [terraform_data.b.output]
}

resource "terraform_data" "b" {
  lifecycle {
    create_before_destroy = "yes"
    ignore_changes        = [input, "${foo}"]
  }
}

resource "terraform_data" "c" {
  provider = "terraform"
}
