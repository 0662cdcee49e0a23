output "c0" {
  value = md5("hello world")
}

output "c1" {
  value = md5("")
}

output "c2" {
  value = sha1("hello world")
}

output "c3" {
  value = sha256("hello world")
}

output "c4" {
  value = sha512("hello world")
}

output "c5" {
  value = base64sha256("hello world")
}

output "c6" {
  value = base64sha512("hello world")
}

output "c7" {
  value = md5("é👍")
}

output "c8" {
  value = sha256("")
}

output "c9" {
  value = uuidv5("dns", "www.terraform.io")
}

output "c10" {
  value = uuidv5("url", "https://www.terraform.io/")
}

output "c11" {
  value = uuidv5("oid", "1.2.840.113549")
}

output "c12" {
  value = uuidv5("x500", "cn=Terraform,ou=HashiCorp")
}

output "c13" {
  value = uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.terraform.io")
}

output "c14" {
  value = uuidv5("6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "x")
}

output "c15" {
  value = uuidv5("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "x")
}

output "c16" {
  value = uuidv5("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x")
}

output "c17" {
  value = uuidv5("6ba7b8109dad11d180b400c04fd430c8", "x")
}

output "c18" {
  value = uuidv5("foo", "x")
}

output "c19" {
  value = uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430cz", "x")
}

output "c20" {
  value = length(uuid())
}

output "c21" {
  value = length(regexall("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", uuid()))
}

output "c22" {
  value = length(bcrypt("hello"))
}

output "c23" {
  value = substr(bcrypt("hello"), 0, 7)
}

output "c24" {
  value = substr(bcrypt("hello", 5), 0, 7)
}

output "c25" {
  value = substr(bcrypt("hello", 3), 0, 7)
}

output "c26" {
  value = bcrypt("hello", 32)
}

output "c27" {
  value = bcrypt("a", 4, 5)
}

output "c28" {
  value = rsadecrypt(file("${path.module}/files/ciphertext.b64"), file("${path.module}/files/key.pem"))
}

output "c29" {
  value = rsadecrypt(file("${path.module}/files/ciphertext.b64"), "not a key")
}

output "c30" {
  value = rsadecrypt("aGVsbG8=", file("${path.module}/files/key.pem"))
}

output "c31" {
  value = rsadecrypt("!!", "x")
}

output "c32" {
  value = rsadecrypt("aGVsbG8=", "not a key")
}
