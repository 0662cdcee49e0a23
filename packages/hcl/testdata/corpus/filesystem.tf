output "c0" {
  value = file("${path.module}/files/hello.txt")
}

output "c1" {
  value = file("files/hello.txt")
}

output "c2" {
  value = file("${path.module}/files/missing.txt")
}

output "c3" {
  value = file("${path.module}/files/binary.bin")
}

output "c4" {
  value = file("${path.module}/files")
}

output "c5" {
  value = filebase64("${path.module}/files/binary.bin")
}

output "c6" {
  value = filebase64("${path.module}/files/hello.txt")
}

output "c7" {
  value = filebase64("${path.module}/files/nope")
}

output "c8" {
  value = fileexists("${path.module}/files/hello.txt")
}

output "c9" {
  value = fileexists("${path.module}/files/nope.txt")
}

output "c10" {
  value = fileexists("${path.module}/files")
}

output "c11" {
  value = fileset(path.module, "files/*.txt")
}

output "c12" {
  value = fileset("${path.module}/files", "*")
}

output "c13" {
  value = fileset("${path.module}/files", "**")
}

output "c14" {
  value = fileset("${path.module}/files", "**/*.md")
}

output "c15" {
  value = fileset("${path.module}/files", "sub/{a,b}.*")
}

output "c16" {
  value = fileset("${path.module}/files", "?ello.txt")
}

output "c17" {
  value = fileset("${path.module}/files", "[a-h]*")
}

output "c18" {
  value = fileset("${path.module}/files", "nothing*")
}

output "c19" {
  value = fileset("${path.module}/nope", "*")
}

output "c20" {
  value = filemd5("${path.module}/files/hello.txt")
}

output "c21" {
  value = filesha1("${path.module}/files/hello.txt")
}

output "c22" {
  value = filesha256("${path.module}/files/hello.txt")
}

output "c23" {
  value = filesha512("${path.module}/files/hello.txt")
}

output "c24" {
  value = filebase64sha256("${path.module}/files/hello.txt")
}

output "c25" {
  value = filebase64sha512("${path.module}/files/hello.txt")
}

output "c26" {
  value = filemd5("${path.module}/files/binary.bin")
}

output "c27" {
  value = filesha256("${path.module}/files/nope")
}

output "c28" {
  value = jsondecode(file("${path.module}/files/data.json"))
}

output "c29" {
  value = dirname("foo/bar/baz.txt")
}

output "c30" {
  value = dirname("/foo/bar/")
}

output "c31" {
  value = dirname("baz.txt")
}

output "c32" {
  value = dirname("")
}

output "c33" {
  value = dirname("/")
}

output "c34" {
  value = dirname("a//b/../c")
}

output "c35" {
  value = basename("foo/bar/baz.txt")
}

output "c36" {
  value = basename("/foo/bar/")
}

output "c37" {
  value = basename("")
}

output "c38" {
  value = basename("/")
}

output "c39" {
  value = basename("baz.txt")
}

output "c40" {
  value = pathexpand("/etc/hosts")
}

output "c41" {
  value = pathexpand("relative/path")
}

output "c42" {
  value = abspath("/etc/../etc/hosts")
}

output "c43" {
  value = startswith(abspath("x"), "/")
}

output "c44" {
  value = endswith(abspath("x/y"), "/x/y")
}
