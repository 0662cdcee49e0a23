variable "a" {
  default = "default"
}
variable "b" {
  default = "default"
}
variable "c" {}
variable "d" {}
variable "e" {}
variable "f" {}
variable "g" {}
variable "n" {
  type = number
}
variable "l" {
  type = list(string)
}
variable "obj" {
  type = object({
    name = string
    port = optional(number, 80)
    tags = optional(map(string), {})
  })
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "hush"
}

output "all" {
  value = {
    a   = var.a
    b   = var.b
    c   = var.c
    d   = var.d
    e   = var.e
    f   = var.f
    g   = var.g
    n   = var.n
    l   = var.l
    obj = var.obj
  }
}
