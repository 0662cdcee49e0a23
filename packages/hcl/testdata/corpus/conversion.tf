output "c0" {
  value = tostring("hello")
}

output "c1" {
  value = tostring(1)
}

output "c2" {
  value = tostring(1.5)
}

output "c3" {
  value = tostring(true)
}

output "c4" {
  value = [tostring(null)]
}

output "c5" {
  value = tostring([])
}

output "c6" {
  value = tostring({})
}

output "c7" {
  value = tonumber(1)
}

output "c8" {
  value = tonumber("1")
}

output "c9" {
  value = tonumber("1.5e3")
}

output "c10" {
  value = tonumber("0x10")
}

output "c11" {
  value = tonumber("hello")
}

output "c12" {
  value = [tonumber(null)]
}

output "c13" {
  value = tonumber(true)
}

output "c14" {
  value = tonumber(" 1")
}

output "c15" {
  value = tonumber("-0")
}

output "c16" {
  value = tobool(true)
}

output "c17" {
  value = tobool("true")
}

output "c18" {
  value = tobool("false")
}

output "c19" {
  value = tobool("yes")
}

output "c20" {
  value = [tobool(null)]
}

output "c21" {
  value = tobool(1)
}

output "c22" {
  value = tobool("1")
}

output "c23" {
  value = tolist(["a", "b", 3])
}

output "c24" {
  value = tolist(["a", "b"])
}

output "c25" {
  value = tolist([])
}

output "c26" {
  value = tolist(toset(["b", "a"]))
}

output "c27" {
  value = tolist([1, true])
}

output "c28" {
  value = tolist(["a", ["b"]])
}

output "c29" {
  value = tolist("a")
}

output "c30" {
  value = tolist({a = 1})
}

output "c31" {
  value = [tolist(null)]
}

output "c32" {
  value = toset(["a", "b", "a"])
}

output "c33" {
  value = toset([1, "1"])
}

output "c34" {
  value = toset([])
}

output "c35" {
  value = toset([3, 1, 2])
}

output "c36" {
  value = toset([{a = 1}, {a = 1}])
}

output "c37" {
  value = toset("a")
}

output "c38" {
  value = tomap({a = 1, b = 2})
}

output "c39" {
  value = tomap({a = "x", b = 2})
}

output "c40" {
  value = tomap({a = 1, b = true})
}

output "c41" {
  value = tomap({})
}

output "c42" {
  value = tomap({a = [1], b = ["x"]})
}

output "c43" {
  value = tomap({a = [1], b = "x"})
}

output "c44" {
  value = tomap(["a"])
}

output "c45" {
  value = [tomap(null)]
}

output "c46" {
  value = tolist([[1], ["a"]])
}

output "c47" {
  value = tolist([{a = 1}, {a = "x", b = 2}])
}

output "c48" {
  value = tolist([{a = 1}, {b = 2}])
}

output "c49" {
  value = tomap({a = {x = 1}, b = {y = 2}})
}

output "c50" {
  value = toset([null, "a"])
}

output "c51" {
  value = tostring(sensitive("x"))
  sensitive = true
}

output "c52" {
  value = tonumber(sensitive("x"))
}

output "c53" {
  value = tobool(sensitive("x"))
}

output "c54" {
  value = sensitive("secret")
  sensitive = true
}

output "c55" {
  value = sensitive(1)
  sensitive = true
}

output "c56" {
  value = sensitive([1, 2])
  sensitive = true
}

output "c57" {
  value = [sensitive(null)]
  sensitive = true
}

output "c58" {
  value = nonsensitive(sensitive("x"))
}

output "c59" {
  value = nonsensitive("x")
}

output "c60" {
  value = nonsensitive(sensitive([1]))
}

output "c61" {
  value = issensitive(sensitive("x"))
}

output "c62" {
  value = issensitive("x")
}

output "c63" {
  value = issensitive(sensitive(null))
}

output "c64" {
  value = issensitive([sensitive("x")])
}

output "c65" {
  value = length(sensitive([1, 2]))
  sensitive = true
}

output "c66" {
  value = upper(sensitive("x"))
  sensitive = true
}

output "c67" {
  value = jsonencode(sensitive({a = 1}))
  sensitive = true
}

output "c68" {
  value = sensitive(sensitive("x"))
  sensitive = true
}

output "c69" {
  value = nonsensitive(upper(sensitive("a")))
}

output "c70" {
  value = keys(sensitive({a = 1, b = 2}))
  sensitive = true
}

output "c71" {
  value = values(sensitive({a = 1}))
  sensitive = true
}

output "c72" {
  value = length(sensitive("abc"))
  sensitive = true
}

output "c73" {
  value = lookup(sensitive({a = "x"}), "a")
  sensitive = true
}

output "c74" {
  value = lookup({a = sensitive("x")}, "a")
  sensitive = true
}

output "c75" {
  value = merge(sensitive({a = 1}), {b = 2})
  sensitive = true
}

output "c76" {
  value = concat(sensitive(["a"]), ["b"])
  sensitive = true
}

output "c77" {
  value = tolist(sensitive(["a"]))
  sensitive = true
}

output "c78" {
  value = jsondecode(sensitive("{\"a\": 1}"))
  sensitive = true
}

output "c79" {
  value = format("%s-%s", sensitive("x"), "y")
  sensitive = true
}

output "c80" {
  value = element(sensitive(["a", "b"]), 1)
  sensitive = true
}

output "c81" {
  value = element(["a", sensitive("b")], 0)
}

output "c82" {
  value = contains(sensitive(["a"]), "a")
  sensitive = true
}

output "c83" {
  value = coalesce(sensitive(""), "b")
  sensitive = true
}

output "c84" {
  value = join(",", [sensitive("a"), "b"])
  sensitive = true
}

output "c85" {
  value = split(",", sensitive("a,b"))
  sensitive = true
}

output "c86" {
  value = toset(sensitive(["a"]))
  sensitive = true
}

output "c87" {
  value = issensitive(nonsensitive(sensitive("x")))
}

output "c88" {
  value = issensitive(upper(sensitive("x")))
}

output "c89" {
  value = nonsensitive({a = sensitive(1)})
  sensitive = true
}

output "c90" {
  value = sensitive({a = 1, b = [true]})
  sensitive = true
}

output "c91" {
  value = one([sensitive("x")])
  sensitive = true
}

output "c92" {
  value = reverse([sensitive(1), 2])
  sensitive = true
}

output "c93" {
  value = flatten([[sensitive("a")], ["b"]])
  sensitive = true
}

output "c94" {
  value = zipmap(["a"], [sensitive(1)])
  sensitive = true
}

output "c95" {
  value = slice(["a", sensitive("b")], 0, 1)
}

output "c96" {
  value = lookup({a = "x", b = sensitive("y")}, "a")
}

output "c97" {
  value = one([sensitive("x")])
  sensitive = true
}

output "c98" {
  value = keys({a = sensitive(1)})
}

output "c99" {
  value = length([sensitive(1)])
}

output "c100" {
  value = length({a = sensitive(1)})
}

output "c101" {
  value = index(["a", sensitive("b")], "a")
  sensitive = true
}

output "c102" {
  value = contains(["a", sensitive("b")], "a")
  sensitive = true
}

output "c103" {
  value = coalesce(sensitive(null), "b")
  sensitive = true
}

output "c104" {
  value = coalescelist([sensitive("a")], ["b"])
  sensitive = true
}

output "c105" {
  value = distinct(["a", sensitive("b")])
  sensitive = true
}

output "c106" {
  value = values({a = "x", b = sensitive("y")})
  sensitive = true
}

output "c107" {
  value = setproduct(["a"], [sensitive("b")])
  sensitive = true
}

output "c108" {
  value = merge({a = "x"}, {b = sensitive("y")})
  sensitive = true
}

output "c109" {
  value = flatten([["a"], [sensitive("b")]])
  sensitive = true
}

output "c110" {
  value = reverse(["a", sensitive("b")])
  sensitive = true
}

output "c111" {
  value = chunklist(["a", sensitive("b")], 1)
  sensitive = true
}

output "c112" {
  value = compact(["a", sensitive("")])
  sensitive = true
}

output "c113" {
  value = sort(["b", sensitive("a")])
  sensitive = true
}

output "c114" {
  value = transpose({a = [sensitive("x")]})
  sensitive = true
}

output "c115" {
  value = tolist(["a", sensitive("b")])
  sensitive = true
}

output "c116" {
  value = tomap({a = "x", b = sensitive("y")})
  sensitive = true
}

output "c117" {
  value = jsonencode({a = sensitive(1)})
  sensitive = true
}

output "c118" {
  value = zipmap(["a", "b"], ["x", sensitive("y")])
  sensitive = true
}

output "c119" {
  value = ephemeralasnull("x")
}

output "c120" {
  value = ephemeralasnull([1, 2])
}
