output "c0" {
  value = upper("abc")
}

output "c1" {
  value = format("%d", "x")
}

output "c2" {
  value = sensitive("x")
  sensitive = true
}

output "c3" {
  value = "a${1}"
}

output "c4" {
  value = <<EOT
hello
EOT
}
