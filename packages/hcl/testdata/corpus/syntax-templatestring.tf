output "c0" {
  value = [for t in ["Hello, $${name}!"] : templatestring(t, {name = "world"})]
}

output "c1" {
  value = [for t in ["plain text"] : templatestring(t, {})]
}

output "c2" {
  value = [for t in ["%%{ if flag }yes%%{ else }no%%{ endif }"] : templatestring(t, {flag = true})]
}

output "c3" {
  value = [for t in ["%%{ for x in xs }<$${x}>%%{ endfor }"] : templatestring(t, {xs = ["a", "b"]})]
}

output "c4" {
  value = [for t in ["$${upper(name)}"] : templatestring(t, {name = "abc"})]
}

output "c5" {
  value = [for t in ["$${a + b}"] : templatestring(t, {a = 1, b = 2})]
}

output "c6" {
  value = [for t in ["$${v}"] : templatestring(t, {v = true})]
}

output "c7" {
  value = [for t in ["$${v}"] : templatestring(t, {v = [1]})]
}

output "c8" {
  value = [for t in ["$${v}"] : templatestring(t, {v = null})]
}

output "c9" {
  value = [for t in ["n=$${a + b}"] : templatestring(t, {a = 1, b = 2})]
}

output "c10" {
  value = [for t in ["line1\n$${v}"] : templatestring(t, {v = "x"})]
}

output "c11" {
  value = [for t in [1] : templatestring(t, {})]
}

output "c12" {
  value = [for t in [null] : templatestring(t, {})]
}

output "c13" {
  value = [for t in [["$${v}"]] : templatestring(t, {v = 1})]
}

output "c14" {
  value = [for t in ["$${nope}"] : templatestring(t, {})]
}

output "c15" {
  value = [for t in ["$${v.nope}"] : templatestring(t, {v = {}})]
}

output "c16" {
  value = [for t in ["$${"] : templatestring(t, {})]
}

output "c17" {
  value = [for t in ["%%{ if x }"] : templatestring(t, {x = true})]
}

output "c18" {
  value = [for t in ["$${v}"] : templatestring(t, "notamap")]
}

output "c19" {
  value = [for t in ["$${v}"] : templatestring(t, null)]
}

output "c20" {
  value = [for t in ["$${v}"] : templatestring(t, {v = "a", "bad-name!" = 1})]
}

output "c21" {
  value = [for t in ["$${v}"] : templatestring(t, {v = "a", "_ok" = 1})]
}

output "c22" {
  value = [for t in ["$${templatestring(v, {})}"] : templatestring(t, {v = "a"})]
}

output "c23" {
  value = [for t in ["$${templatefile(\"x\", {})}"] : templatestring(t, {})]
}

output "c24" {
  value = [for t in ["$${file(\"x\")}"] : templatestring(t, {})]
}

output "c25" {
  value = [for t in ["$${fileexists(\"x\")}"] : templatestring(t, {})]
}

output "c26" {
  value = [for t in ["$${core::file(\"x\")}"] : templatestring(t, {})]
}

output "c27" {
  value = [for t in ["$${nosuchfunc(1)}"] : templatestring(t, {})]
}

output "c28" {
  value = [for t in [sensitive("<$${v}>")] : templatestring(t, {v = "x"})]
  sensitive = true
}

output "c29" {
  value = [for t in ["<$${v}>"] : templatestring(t, {v = sensitive("x")})]
  sensitive = true
}

output "c30" {
  value = [for t in ["<$${v}>"] : templatestring(t, sensitive({v = "x"}))]
  sensitive = true
}

output "c31" {
  value = [for o in [{t = "<$${v}>"}] : templatestring(o.t, {v = 1})]
}

output "c32" {
  value = [for o in [["<$${v}>"]] : templatestring(o[0], {v = 2})]
}

output "c33" {
  value = [for i, o in [["<$${v}>"]] : templatestring(o[i], {v = 3})]
}

output "c34" {
  value = [for i, o in [[{t = "<$${v}>"}]] : templatestring(o[i].t, {v = 4})]
}

output "c35" {
  value = [for o in [["<$${v}>"]] : templatestring(o[*], {v = 5})]
}

output "c36" {
  value = [for o in [{t = "x"}] : templatestring(o.nope, {})]
}

output "c37" {
  value = [for o in ["x"] : templatestring(o[0], {})]
}

output "c38" {
  value = templatestring(path.module, {})
}

output "c39" {
  value = templatestring("Hello, $${name}!", {name = "world"})
}

output "c40" {
  value = templatestring("plain text", {})
}

output "c41" {
  value = templatestring("", {})
}

output "c42" {
  value = templatestring("Hello, ${"x"}!", {})
}

output "c43" {
  value = templatestring("%{ if true }x%{ endif }", {})
}

output "c44" {
  value = templatestring("${path.module}", {})
}

output "c45" {
  value = templatestring(jsondecode("\"Hello, $${name}!\""), {name = "x"})
}

output "c46" {
  value = templatestring(1, {})
}

output "c47" {
  value = templatestring(("$${x}"), {x = 1})
}

output "c48" {
  value = templatestring(path.module, null)
}

output "c49" {
  value = templatestring("x")
}

output "c50" {
  value = templatestring("x", {}, 1)
}

output "c51" {
  value = [for t in ["<$${v}>"] : core::templatestring(t, {v = "core"})]
}

output "c52" {
  value = try(templatestring("$${nope}", {}), "fallback")
}

output "c53" {
  value = [for t in ["$${nope}"] : try(templatestring(t, {}), "fallback")]
}

output "c54" {
  value = [for t in ["$${v}"] : can(templatestring(t, {v = "y"}))]
}

output "c55" {
  value = [for t in ["$${cidrhost(\"x\", 1)}"] : templatestring(t, {})]
}

output "c56" {
  value = [for t in ["$${upper([])}"] : templatestring(t, {})]
}

output "c57" {
  value = [for t in ["$${upper()}"] : templatestring(t, {})]
}
