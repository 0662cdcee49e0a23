output "b" {
  value      = 1
  depends_on = [terraform_data.x.id]
}

resource "terraform_data" "x" {}


output "d" {
  value = data.x
}

output "e" {
  value = terraform_data
}

