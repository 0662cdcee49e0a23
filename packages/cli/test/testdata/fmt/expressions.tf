locals {
  neg = [ -1, 2 - 1, -var.x, 1- -1, (-1), !var.b, ! var.c, a == -1 ? -2 : - 3 ]
  forexp = [for x in [ "a" ]: upper(x) if x!="b"]
  formap = {for k,v in var.m : k=>v...}
  splat = var.list[*].id
  splat2 = var.list.*.id
  idx = var.list [0] [ "k" ]
  fn = provider::aws::arn_parse( "arn:aws:iam::1:role/x" )
  call = max(  1,2 ,  3  )
  expand = max(var.nums ...)
  obj = { a = 1, "b" = 2, c: 3 }
  tmpl = "%{ for i in var.l ~}${i}%{ endfor ~}"
  cond = var.a?var.b:var.c
  arith = 1+2*3/4%5
  cmp = 1<2 && 2<=3 || 3>4 && 4>=5
  nested = {
    short = 1
    much_longer_key = { inner = 2, x = [ 1,
      2 ]
    }
    k = "v"
  }
  unicode = {
    "ключ" = 1
    "日本語キー" = 2
    "e\u0301" = 3
    "👍🏽" = 4
    ascii_key = 5
  }
}
