resource "terraform_data" "y" {
  lifecycle {
    precondition {
      condition     = 1 == 1
      error_message = "x"
    }
  }
}
