output "c0" {
  value = formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")
}

output "c1" {
  value = formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")
}

output "c2" {
  value = formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00")
}

output "c3" {
  value = formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z")
}

output "c4" {
  value = formatdate("HH:mmaa", "2018-01-02T23:12:01Z")
}

output "c5" {
  value = formatdate("H:m:s AA", "2018-01-02T00:02:03Z")
}

output "c6" {
  value = formatdate("h'h'mm", "2018-01-02T23:12:01Z")
}

output "c7" {
  value = formatdate("YYYY-MM-DD'T'hh:mm:ssZ", "2018-01-02T23:12:01+05:30")
}

output "c8" {
  value = formatdate("Z ZZZZ ZZZZZ", "2018-01-02T23:12:01+05:30")
}

output "c9" {
  value = formatdate("Z ZZZZ ZZZZZ", "2018-01-02T23:12:01Z")
}

output "c10" {
  value = formatdate("ZZZ", "2018-01-02T23:12:01+05:30")
}

output "c11" {
  value = formatdate("M/D/YY", "2018-01-02T23:12:01Z")
}

output "c12" {
  value = formatdate("MMMM EEEE", "2024-02-29T00:00:00Z")
}

output "c13" {
  value = formatdate("'It''s' YYYY", "2018-01-02T23:12:01Z")
}

output "c14" {
  value = formatdate("''", "2018-01-02T23:12:01Z")
}

output "c15" {
  value = formatdate("YYY", "2018-01-02T23:12:01Z")
}

output "c16" {
  value = formatdate("MMMMM", "2018-01-02T23:12:01Z")
}

output "c17" {
  value = formatdate("DDD", "2018-01-02T23:12:01Z")
}

output "c18" {
  value = formatdate("EE", "2018-01-02T23:12:01Z")
}

output "c19" {
  value = formatdate("hhh", "2018-01-02T23:12:01Z")
}

output "c20" {
  value = formatdate("A", "2018-01-02T23:12:01Z")
}

output "c21" {
  value = formatdate("x", "2018-01-02T23:12:01Z")
}

output "c22" {
  value = formatdate("ZZ", "2018-01-02T23:12:01Z")
}

output "c23" {
  value = formatdate("'unterminated", "2018-01-02T23:12:01Z")
}

output "c24" {
  value = formatdate("YYYY", "2018-01-02")
}

output "c25" {
  value = formatdate("YYYY", "not a date")
}

output "c26" {
  value = formatdate("YYYY", "2018-13-02T23:12:01Z")
}

output "c27" {
  value = formatdate("YYYY", "2018-02-30T23:12:01Z")
}

output "c28" {
  value = formatdate("YYYY", "2018-01-02T25:12:01Z")
}

output "c29" {
  value = formatdate("YYYY", "2018-01-02 23:12:01Z")
}

output "c30" {
  value = formatdate("YYYY", "2018-01-02T23:12:01")
}

output "c31" {
  value = formatdate("ss", "2018-01-02T23:12:01.999Z")
}

output "c32" {
  value = formatdate("DD", "0001-01-01T00:00:00Z")
}

output "c33" {
  value = timeadd("2017-11-22T00:00:00Z", "10m")
}

output "c34" {
  value = timeadd("2017-11-22T00:00:00Z", "-1h30m")
}

output "c35" {
  value = timeadd("2017-11-22T00:00:00Z", "1.5h")
}

output "c36" {
  value = timeadd("2017-11-22T00:00:00+02:00", "24h")
}

output "c37" {
  value = timeadd("2017-11-22T00:00:00.5Z", "1s")
}

output "c38" {
  value = timeadd("2017-11-22T00:00:00Z", "1ms")
}

output "c39" {
  value = timeadd("2017-11-22T00:00:00Z", "0")
}

output "c40" {
  value = timeadd("2017-11-22T00:00:00Z", "1d")
}

output "c41" {
  value = timeadd("2017-11-22T00:00:00Z", "10")
}

output "c42" {
  value = timeadd("2017-11-22T00:00:00Z", "")
}

output "c43" {
  value = timeadd("2017-11-22", "1h")
}

output "c44" {
  value = timeadd("2024-02-28T23:00:00Z", "2h")
}

output "c45" {
  value = timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")
}

output "c46" {
  value = timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")
}

output "c47" {
  value = timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00Z")
}

output "c48" {
  value = timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")
}

output "c49" {
  value = timecmp("2017-11-22T00:00:00.1Z", "2017-11-22T00:00:00Z")
}

output "c50" {
  value = timecmp("x", "2017-11-22T00:00:00Z")
}

output "c51" {
  value = timecmp("2017-11-22T00:00:00Z", "x")
}

output "c52" {
  value = length(timestamp())
}

output "c53" {
  value = length(regexall("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$", timestamp()))
}

output "c54" {
  value = length(plantimestamp())
}
