# The AWS part: the names and the token stored as SSM parameters by the real hashicorp/aws
# provider (the `ssm` module pins 5.100.0), talking only to a local fake AWS endpoint
# (@magma/fake-aws) with dummy credentials. `pnpm hello` starts the endpoint and sets
# TF_VAR_aws_endpoint; it leaves this file and ssm/ out when the provider binary is not found.

variable "aws_endpoint" {
  description = "The fake AWS endpoint, e.g. http://127.0.0.1:4566 (never real AWS)."
  type        = string
}

provider "aws" {
  region                      = "us-east-1"
  access_key                  = "hello"
  secret_key                  = "hello"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
  max_retries                 = 2
  endpoints {
    ssm = var.aws_endpoint
    sts = var.aws_endpoint
  }
}

module "ssm" {
  source = "./ssm"
  names  = [for s in random_string.name : "${s.result}-${random_id.suffix.hex}"]
  token  = random_password.token.result
}

output "parameters" {
  value = module.ssm.parameters
}
