resource "terraform_data" "a" {
  input = terraform_data.a.id
}

resource "terraform_data" "b" {
  input = self.id
}

output "x" {
  value = path.foo
}
