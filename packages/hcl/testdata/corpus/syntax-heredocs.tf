output "c0" {
  value = <<EOT
hello
EOT

}
output "c1" {
  value = <<EOT
hello
world
EOT

}
output "c2" {
  value = <<EOT
  indented
EOT

}
output "c3" {
  value = <<-EOT
  indented
    more
  EOT

}
output "c4" {
  value = <<-EOT
    a

    b
    EOT

}
output "c5" {
  value = <<EOT
${1+1}
EOT

}
output "c6" {
  value = <<EOT
x ${"y"} z
EOT

}
output "c7" {
  value = <<-EOT
  x ${"y"}
    z
  EOT

}
output "c8" {
  value = <<EOT
$${not}
EOT

}
output "c9" {
  value = <<EOT
%{if true}yes%{endif}
EOT

}
output "c10" {
  value = <<EOT
no \n escapes
EOT

}
output "c11" {
  value = <<EOT

EOT

}
output "c12" {
  value = <<EOT
EOT

}
output "c13" {
  value = <<-EOT
	Tabbed
	EOT

}
output "c14" {
  value = <<-EOT
    a
  b
    EOT

}
output "c15" {
  value = <<EOT
"quotes"
EOT

}
output "c16" {
  value = <<MARKER
content
MARKER

}
output "c17" {
  value = <<EOT
  EOT not end
EOT

}
output "c18" {
  value = <<-EOT
  %{ for x in [1,2] ~}
  ${x}
  %{ endfor ~}
  EOT

}
output "c19" {
  value = <<EOT
A
B
C
EOT

}
output "c20" {
  value = <<-EOT
${"a"}
  b
  EOT

}
output "c21" {
  value = <<-EOT
      deep
    EOT

}
output "c22" {
  value = <<EOT
trailing   
EOT

}
output "c23" {
  value = <<EOT
%{ for i in [1,2,3] }${i},%{ endfor }
EOT

}
output "c24" {
  value = <<-X
 x
 X

}
