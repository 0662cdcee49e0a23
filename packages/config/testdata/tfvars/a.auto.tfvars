e = "a.auto"
f = "a.auto"
