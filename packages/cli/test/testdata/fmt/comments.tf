# leading comment
   // another
/* block
   comment */
resource "a" "b" { # trailing on block
  x = 1 # one
  longer_name = "v" // two
  /* inline */ y = 2
  z = 3 /* after */

  w = [ # open
    1, # item
    22,   # item two
  ]
}
variable "v" {
default = 1   #c
type= string
}
