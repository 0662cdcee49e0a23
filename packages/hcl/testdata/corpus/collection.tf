output "c0" {
  value = alltrue([true, true])
}

output "c1" {
  value = alltrue([true, false])
}

output "c2" {
  value = alltrue([])
}

output "c3" {
  value = alltrue(["true", true])
}

output "c4" {
  value = alltrue([true, null])
}

output "c5" {
  value = anytrue([false, true])
}

output "c6" {
  value = anytrue([false, false])
}

output "c7" {
  value = anytrue([])
}

output "c8" {
  value = anytrue([null, true])
}

output "c9" {
  value = chunklist(["a", "b", "c", "d", "e"], 2)
}

output "c10" {
  value = chunklist(["a", "b"], 1)
}

output "c11" {
  value = chunklist(["a", "b"], 0)
}

output "c12" {
  value = chunklist([], 2)
}

output "c13" {
  value = chunklist(["a"], -1)
}

output "c14" {
  value = chunklist([1, "a"], 1)
}

output "c15" {
  value = coalesce("a", "b")
}

output "c16" {
  value = coalesce("", "b")
}

output "c17" {
  value = coalesce(null, 1, 2)
}

output "c18" {
  value = coalesce(1, "a")
}

output "c19" {
  value = coalesce(null, "")
}

output "c20" {
  value = coalesce([], ["a"])
}

output "c21" {
  value = coalesce()
}

output "c22" {
  value = coalesce(["a"], {a = 1})
}

output "c23" {
  value = coalescelist(["a", "b"], ["c", "d"])
}

output "c24" {
  value = coalescelist([], ["c", "d"])
}

output "c25" {
  value = coalescelist([], [])
}

output "c26" {
  value = coalescelist("a")
}

output "c27" {
  value = coalescelist([], [1], ["x"])
}

output "c28" {
  value = compact(["a", "", "b", null, "c"])
}

output "c29" {
  value = compact([])
}

output "c30" {
  value = compact([1, ""])
}

output "c31" {
  value = concat(["a", ""], ["b", "c"])
}

output "c32" {
  value = concat([1], ["a"], [true])
}

output "c33" {
  value = concat([])
}

output "c34" {
  value = concat()
}

output "c35" {
  value = concat(["a"], "b")
}

output "c36" {
  value = concat(tolist(["a"]), tolist(["b"]))
}

output "c37" {
  value = concat(tolist(["a"]), [1])
}

output "c38" {
  value = contains(["a", "b", "c"], "a")
}

output "c39" {
  value = contains(["a", "b", "c"], "d")
}

output "c40" {
  value = contains([1, 2], "1")
}

output "c41" {
  value = contains(toset(["x"]), "x")
}

output "c42" {
  value = contains([], 1)
}

output "c43" {
  value = contains("abc", "a")
}

output "c44" {
  value = contains([[1], [2]], [2])
}

output "c45" {
  value = distinct(["a", "b", "a", "c", "d", "b"])
}

output "c46" {
  value = distinct([])
}

output "c47" {
  value = distinct([1, "1"])
}

output "c48" {
  value = element(["a", "b", "c"], 1)
}

output "c49" {
  value = element(["a", "b", "c"], 3)
}

output "c50" {
  value = element([], 0)
}

output "c51" {
  value = element(["a", 1], 1)
}

output "c52" {
  value = element(toset(["a"]), 0)
}

output "c53" {
  value = element(["a"], 1.5)
}

output "c54" {
  value = flatten([["a", "b"], [], ["c"]])
}

output "c55" {
  value = flatten([[["a", "b"], []], ["c"]])
}

output "c56" {
  value = flatten([1, [2, [3, [4]]], toset([5])])
}

output "c57" {
  value = flatten([])
}

output "c58" {
  value = flatten("a")
}

output "c59" {
  value = flatten([null, [null]])
}

output "c60" {
  value = index(["a", "b", "c"], "b")
}

output "c61" {
  value = index(["a", "b", "c"], "d")
}

output "c62" {
  value = index([], "a")
}

output "c63" {
  value = index([1, 2], "2")
}

output "c64" {
  value = index(toset(["a"]), "a")
}

output "c65" {
  value = keys({a = 1, c = 2, d = 3})
}

output "c66" {
  value = keys({})
}

output "c67" {
  value = keys(tomap({b = "1", a = "2"}))
}

output "c68" {
  value = keys([1])
}

output "c69" {
  value = values({a = 3, c = 2, d = 1})
}

output "c70" {
  value = values({})
}

output "c71" {
  value = values(tomap({b = "1", a = "2"}))
}

output "c72" {
  value = values("a")
}

output "c73" {
  value = length([])
}

output "c74" {
  value = length(["a", "b"])
}

output "c75" {
  value = length({a = 1, b = 2})
}

output "c76" {
  value = length(toset(["a", "a"]))
}

output "c77" {
  value = length(1)
}

output "c78" {
  value = length(true)
}

output "c79" {
  value = lookup({a = "ay", b = "bee"}, "a", "what?")
}

output "c80" {
  value = lookup({a = "ay", b = "bee"}, "c", "what?")
}

output "c81" {
  value = lookup({a = "ay"}, "c")
}

output "c82" {
  value = lookup({a = "ay"}, "a")
}

output "c83" {
  value = lookup(tomap({a = "ay"}), "c", 1)
}

output "c84" {
  value = lookup(tomap({a = "ay"}), "c", [1])
}

output "c85" {
  value = lookup({a = 1}, "a", 2, 3)
}

output "c86" {
  value = lookup("a", "b")
}

output "c87" {
  value = lookup({a = {b = 1}}, "a", null)
}

output "c88" {
  value = matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])
}

output "c89" {
  value = matchkeys(["a", "b"], [1, 2], [2, 3])
}

output "c90" {
  value = matchkeys(["a", "b"], [1, 2], [])
}

output "c91" {
  value = matchkeys(["a"], [1, 2], [1])
}

output "c92" {
  value = matchkeys(["a", "b"], ["1", "2"], [1])
}

output "c93" {
  value = merge({a = "b", c = "d"}, {e = "f", c = "z"})
}

output "c94" {
  value = merge({a = "b"}, {a = [1, 2], c = "z"}, {d = 3})
}

output "c95" {
  value = merge()
}

output "c96" {
  value = merge({}, {})
}

output "c97" {
  value = merge(tomap({a = "x"}), tomap({b = "y"}))
}

output "c98" {
  value = merge(tomap({a = "x"}), {b = 1})
}

output "c99" {
  value = merge({a = 1}, null)
}

output "c100" {
  value = merge({a = 1}, "b")
}

output "c101" {
  value = merge([{a = 1}, {b = 2}]...)
}

output "c102" {
  value = [one([])]
}

output "c103" {
  value = one(["hello"])
}

output "c104" {
  value = one(["hello", "goodbye"])
}

output "c105" {
  value = one(toset(["a", "a"]))
}

output "c106" {
  value = one(tolist(["x"]))
}

output "c107" {
  value = one({a = 1})
}

output "c108" {
  value = reverse([1, 2, 3])
}

output "c109" {
  value = reverse([])
}

output "c110" {
  value = reverse(["a", 1])
}

output "c111" {
  value = reverse(toset(["b", "a"]))
}

output "c112" {
  value = reverse("abc")
}

output "c113" {
  value = setintersection(["a", "b"], ["b", "c"], ["b", "d"])
}

output "c114" {
  value = setintersection(["a"], [1])
}

output "c115" {
  value = setintersection([1], [2])
}

output "c116" {
  value = setunion(["a", "b"], ["b", "c"], ["d"])
}

output "c117" {
  value = setunion(["a"], [1])
}

output "c118" {
  value = setunion([], ["a"])
}

output "c119" {
  value = setunion([], [])
}

output "c120" {
  value = setsubtract(["a", "b", "c"], ["a", "c"])
}

output "c121" {
  value = setsubtract(["a", "b"], [])
}

output "c122" {
  value = setsubtract([1, 2], ["1"])
}

output "c123" {
  value = setproduct(["development", "staging"], ["app1", "app2"])
}

output "c124" {
  value = setproduct(["a"], [1, 2])
}

output "c125" {
  value = setproduct([], ["a"])
}

output "c126" {
  value = setproduct(["a"])
}

output "c127" {
  value = setproduct(toset(["b", "a"]), ["x"])
}

output "c128" {
  value = setproduct(["a", 1], ["b"])
}

output "c129" {
  value = setproduct("a", ["b"])
}

output "c130" {
  value = slice(["a", "b", "c", "d"], 1, 3)
}

output "c131" {
  value = slice(["a", 1, true], 0, 2)
}

output "c132" {
  value = slice(["a"], 0, 0)
}

output "c133" {
  value = slice(["a", "b"], 2, 1)
}

output "c134" {
  value = slice(["a", "b"], 0, 3)
}

output "c135" {
  value = slice(["a", "b"], -1, 1)
}

output "c136" {
  value = slice(toset(["a"]), 0, 1)
}

output "c137" {
  value = slice(tolist(["a", "b", "c"]), 1, 2)
}

output "c138" {
  value = slice("abc", 0, 1)
}

output "c139" {
  value = sort(["e", "d", "a", "x", "B", "10", "9"])
}

output "c140" {
  value = sort([])
}

output "c141" {
  value = sort([3, 20, 1])
}

output "c142" {
  value = sort(["a", null])
}

output "c143" {
  value = transpose({a = ["1", "2"], b = ["2", "3"]})
}

output "c144" {
  value = transpose({})
}

output "c145" {
  value = transpose({a = []})
}

output "c146" {
  value = zipmap(["a", "b"], [1, 2])
}

output "c147" {
  value = zipmap(["a", "b"], [1, "x"])
}

output "c148" {
  value = zipmap([], [])
}

output "c149" {
  value = zipmap(["a"], [1, 2])
}

output "c150" {
  value = zipmap(["a", "a"], [1, 2])
}

output "c151" {
  value = zipmap(tolist(["a"]), tolist([1]))
}

output "c152" {
  value = zipmap(["a"], "x")
}

output "c153" {
  value = list("a")
}

output "c154" {
  value = map("a", "b")
}
