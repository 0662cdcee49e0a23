variables {
  name="x"
}
run "plan_it" {
command=plan
assert {
condition = aws_s3_bucket.b.bucket=="x"
error_message = "bad ${var.name}"
}
}
