output "a" {
  value = 1
  postcondition {
    condition     = true
    error_message = "x"
  }
}
