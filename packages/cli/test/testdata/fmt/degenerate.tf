locals {
  a = [[
    1, 2
  ]]
  b = f(g(
    1
  ), 2)
  c = { x = [
    1
  ] }
  d = [
    for x in y : x
  ]
}
