resource "terraform_data" "a" {
  input = terraform_data.b.outptu
}

resource "terraform_data" "b" {}

output "o" {
  value = terraform_data.a.id.nope
}
