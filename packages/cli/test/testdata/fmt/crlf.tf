a = 1
bb  =  "${x}"
block {
  c=<<EOT
x
EOT
}
