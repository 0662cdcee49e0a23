output "c0" {
  value = regex("[a-z]+", "53453453.345345aaabbbccc23454")
}

output "c1" {
  value = regex("(\\d\\d)(\\d\\d)", "2019-12")
}

output "c2" {
  value = regex("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?", "https://terraform.io/docs/")
}

output "c3" {
  value = regex("(?<year>\\d{4})-(?<month>\\d{2})", "2019-12")
}

output "c4" {
  value = regex("a(b)?c", "ac")
}

output "c5" {
  value = regex("[a-z]+", "12345")
}

output "c6" {
  value = regex("(", "x")
}

output "c7" {
  value = regex("(a)(?P<n>b)", "ab")
}

output "c8" {
  value = regex("a**", "a")
}

output "c9" {
  value = regex("x{1001}", "x")
}

output "c10" {
  value = regex("\\pL+", "héllo123")
}

output "c11" {
  value = regex("(?i)HELLO", "say hello")
}

output "c12" {
  value = regex("^\\w+$", "abc_123")
}

output "c13" {
  value = regex("\\bfoo\\b", "a foo b")
}

output "c14" {
  value = regex("(?s)a.b", "a\nb")
}

output "c15" {
  value = regex("(?m)^b$", "a\nb\nc")
}

output "c16" {
  value = regex("\\Aab", "abc")
}

output "c17" {
  value = regex("c\\z", "abc")
}

output "c18" {
  value = regex("[[:alpha:]]+", "123abc456")
}

output "c19" {
  value = regex("\\x{65}", "hello")
}

output "c20" {
  value = regex("[^\\x00-\\x7F]+", "abcéèd")
}

output "c21" {
  value = regex("a|ab", "ab")
}

output "c22" {
  value = regex("(a+)(b*)", "aaabbbb")
}

output "c23" {
  value = regex("é", "café")
}

output "c24" {
  value = regexall("[a-z]+", "1234abcd5678efgh9")
}

output "c25" {
  value = regexall("[a-z]+", "12345")
}

output "c26" {
  value = regexall("(\\d+)-(\\d+)", "1-2 33-44 5")
}

output "c27" {
  value = regexall("(?P<k>\\w+)=(?P<v>\\w*)", "a=1 b= c=3")
}

output "c28" {
  value = regexall("a*", "baaac")
}

output "c29" {
  value = regexall("", "abc")
}

output "c30" {
  value = regexall("x*", "")
}

output "c31" {
  value = regexall("\\b", "ab cd")
}

output "c32" {
  value = length(regexall("o", "foo boo"))
}

output "c33" {
  value = regexall("(", "x")
}

output "c34" {
  value = regexall("(a)|(b)", "ab")
}

output "c35" {
  value = regex(1, "1")
}

output "c36" {
  value = regex("[0-9]+", 12345)
}

output "c37" {
  value = regexall("\\pN", "a1b٢c")
}

output "c38" {
  value = regex("(?U)a+", "aaa")
}

output "c39" {
  value = regex("\\Qa.b\\E", "xa.by")
}

output "c40" {
  value = regex("[\\d-]+", "tel: 555-1234")
}
