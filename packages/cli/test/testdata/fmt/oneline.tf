a { b = 1 }
c {}
d {  }
e "l" { f = { g = 1 } }
lifecycle { ignore_changes = [ tags ] }
