terraform {
  required_version = ">= 1.5.0"
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.west]
    }
  }
  backend "local" {
    path = "state/terraform.tfstate"
  }
}

provider "aws" {
  region = var.region
}

provider "aws" {
  alias  = "east"
  region = "us-east-1"
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "servers" {
  type = map(object({
    size = optional(string, "small")
    tags = optional(map(string), {})
  }))
  default = {
    web = {}
  }
  validation {
    condition     = length(var.servers) > 0
    error_message = "At least one server."
  }
}

variable "password" {
  type      = string
  sensitive = true
  nullable  = false
  default   = "x"
}

locals {
  prefix = "app-${var.region}"
  names  = [for k, v in var.servers : "${local.prefix}-${k}"]
}

resource "random_pet" "name" {
  count  = 2
  length = count.index + 1

  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [length, keepers["a"]]
    replace_triggered_by  = [terraform_data.trigger]
    precondition {
      condition     = var.region != ""
      error_message = "Region required."
    }
    postcondition {
      condition     = self.id != ""
      error_message = "Id required."
    }
  }
}

resource "aws_instance" "server" {
  for_each      = var.servers
  provider      = aws.east
  instance_type = each.value.size
  tags          = merge(each.value.tags, { Name = random_pet.name[0].id })
  depends_on    = [terraform_data.trigger]

  dynamic "ebs_block_device" {
    for_each = toset(["sdb", "sdc"])
    iterator = dev
    content {
      device_name = dev.value
      volume_size = length(local.names)
    }
  }

  lifecycle {
    ignore_changes = all
  }
}

resource "terraform_data" "trigger" {
  input = local.prefix
}

data "aws_ami" "ubuntu" {
  provider    = aws.west
  most_recent = true
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "No AMI."
    }
  }
}

module "net" {
  source   = "./modules/net"
  for_each = toset(["a", "b"])
  cidr     = "10.0.0.0/16"
  providers = {
    aws = aws.east
  }
  depends_on = [terraform_data.trigger]
}

output "names" {
  value       = random_pet.name[*].id
  description = "Pet names."
  sensitive   = false
  depends_on  = [module.net]
  precondition {
    condition     = length(local.names) > 0
    error_message = "No names."
  }
}

output "subnet" {
  value = module.net["a"].subnet_id
}

moved {
  from = random_pet.old
  to   = random_pet.name
}

import {
  for_each = var.servers
  to       = aws_instance.server[each.key]
  id       = "i-${each.key}"
}

removed {
  from = terraform_data.gone
  lifecycle {
    destroy = false
  }
}

check "health" {
  data "terraform_remote_state" "probe" {
    backend = "local"
  }
  assert {
    condition     = data.terraform_remote_state.probe.outputs != null
    error_message = "Unhealthy."
  }
}
