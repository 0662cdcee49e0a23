variable "a" {
  type = lisst(string)
}

variable "b" {
  type    = number
  default = "abc"
}

variable "c" {
  type = "string"
}

variable "d" {
  type     = string
  nullable = false
  default  = null
}

variable "count" {}

variable "e" {
  type    = object({ a = optional(string, 1), b = optional(number, "x") })
}
