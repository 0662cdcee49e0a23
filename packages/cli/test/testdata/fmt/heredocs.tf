locals {
a = <<EOT
  keep   this ${ var.x }   and %{ if true }y%{ endif }
    EOT
b    = <<-EOT
      indented ${join(",",[1,2])}
      EOT
 c = [<<EOT
one
EOT
 , "two"]
d = "cost $5 and 100% ${ var.y}"
e = "$${literal} %%{literal}"
f = "${ {a=1} }"
}
