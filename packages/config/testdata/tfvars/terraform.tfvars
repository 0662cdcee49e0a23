c = "tfvars"
d = "tfvars"
obj = { name = "web" }
