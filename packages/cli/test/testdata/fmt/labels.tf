resource aws_instance web {}
resource "x" "a$b" {}
resource x /* c */ "y" /* d */ {
}
resource "x" "a\u0041\t" {}
module "m" { source = "./m" }
data "x" "" {}
thing "with\"quote" "back\\slash" {}
