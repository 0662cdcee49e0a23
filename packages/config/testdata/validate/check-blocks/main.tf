check "c" {
  data "terraform_remote_state" "s" {
    backend = "local"
  }
}

check "c" {
  assert {
    condition = true
  }
}
