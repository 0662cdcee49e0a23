output "c0" {
  value = templatefile("${path.module}/files/tf-hello.tftpl", {name = "world"})
}

output "c1" {
  value = templatefile("${path.module}/files/tf-list.tftpl", {items = ["a", "b"]})
}

output "c2" {
  value = templatefile("${path.module}/files/tf-passthrough.tftpl", {value = 42})
}

output "c3" {
  value = templatefile("${path.module}/files/tf-passthrough.tftpl", {value = [1, 2]})
}

output "c4" {
  value = templatefile("${path.module}/files/tf-if.tftpl", {flag = true})
}

output "c5" {
  value = templatefile("${path.module}/files/tf-if.tftpl", {flag = false})
}

output "c6" {
  value = templatefile("${path.module}/files/tf-unknown-var.tftpl", {})
}

output "c7" {
  value = templatefile("${path.module}/files/tf-bad-syntax.tftpl", {})
}

output "c8" {
  value = templatefile("${path.module}/files/missing.tftpl", {})
}

output "c9" {
  value = templatefile("${path.module}/files/tf-hello.tftpl", "notamap")
}

output "c10" {
  value = templatefile("${path.module}/files/tf-hello.tftpl", {name = "a", "bad-name!" = 1})
}

output "c11" {
  value = templatefile("${path.module}/files/tf-hello.tftpl")
}

output "c12" {
  value = templatefile("${path.module}/files/tf-hello.tftpl", {name = null})
}

output "c13" {
  value = templatefile("${path.module}/files/tf-hello.tftpl", {name = ["x"]})
}

output "c14" {
  value = core::templatefile("${path.module}/files/tf-hello.tftpl", {name = "core"})
}

output "c15" {
  value = try(templatefile("${path.module}/files/missing.tftpl", {}), "fallback")
}

output "c16" {
  value = can(templatefile("${path.module}/files/tf-bad-syntax.tftpl", {}))
}

output "c17" {
  value = templatefile("${path.module}/files/tf-passthrough.tftpl", {value = null})
}
