resource "terraform_data" "a" {
  count = "abc"
}
resource "terraform_data" "b" {
  for_each = 5
}
resource "terraform_data" "c" {
  count = -1
}
resource "terraform_data" "d" {
  for_each = ["a"]
}
resource "terraform_data" "e" {
  for_each = null
}
resource "terraform_data" "f" {
  count = null
}
resource "terraform_data" "g" {
  count = 1.5
}
resource "terraform_data" "h" {
  count = "2"
}
resource "terraform_data" "i" {
  for_each = { a = 1 }
}
