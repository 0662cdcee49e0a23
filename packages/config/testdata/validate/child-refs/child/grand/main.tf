output "b" {
  value = module.missing.x
}
