terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "cidr" {
  type = string
}

resource "aws_vpc" "this" {
  cidr_block = var.cidr
}

module "sub" {
  source = "./sub"
  vpc_id = aws_vpc.this.id
}

output "subnet_id" {
  value = module.sub.id
}
