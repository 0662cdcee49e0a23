# One SSM parameter per name, and the token as a SecureString.
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

variable "names" {
  type = list(string)
}

variable "token" {
  type      = string
  sensitive = true
}

resource "aws_ssm_parameter" "name" {
  count = length(var.names)
  name  = "/hello/names/${count.index}"
  type  = "String"
  value = var.names[count.index]
}

resource "aws_ssm_parameter" "token" {
  name  = "/hello/token"
  type  = "SecureString"
  value = var.token
}

output "parameters" {
  value = aws_ssm_parameter.name[*].name
}
