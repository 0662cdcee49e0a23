module "child" {
  source = "./child"
}

output "a" {
  value = module.child.nope
}

output "b" {
  value = module.child.x
}
