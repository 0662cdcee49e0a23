import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { objectVal, Path, stringVal, toJson, type Value } from "@magma/cty";
import type { Provider } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { createLocalBackend, formatModuleInstance, loadState, type StateFile } from "@magma/state";
import { createEngine, type EnginePlanResult } from "./engine.js";
import type { ProviderSource } from "./provider-source.js";
import { formatPlan, parsePlan } from "./plan/plan-file.js";
import type { PlannedInstanceChange } from "./plan/planned-instance-change.js";
import { configOf, item, MEMORY, stateOf, testSource } from "./planner/test-support.js";

const PROVIDERS = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
`;

function actions(r: EnginePlanResult): Record<string, string> {
  return Object.fromEntries(r.plan.changes.map((c) => [c.address + (c.deposedKey !== undefined ? ` (deposed ${c.deposedKey})` : ""), c.action]));
}

function change(r: EnginePlanResult, address: string): PlannedInstanceChange {
  const c = r.plan.changes.find((x) => x.address === address);
  if (c === undefined) throw new Error(`no change for ${address}: ${Object.keys(actions(r)).join(", ")}`);
  return c;
}

function noErrors(r: EnginePlanResult): void {
  const errs = r.diagnostics.filter((d) => d.severity === "error");
  expect(errs.map((d) => `${d.address ?? ""} ${d.summary}: ${d.detail}`)).toEqual([]);
}

function plain(v: Value): unknown {
  return v.isWhollyKnown() ? JSON.parse(toJson(v, v.type)) : v.toString();
}

async function planOf(files: Record<string, string>, state: Parameters<ReturnType<typeof createEngine>["plan"]>[1], options: Parameters<ReturnType<typeof createEngine>["plan"]>[2] = {}, items = new Map<string, Value>()): Promise<EnginePlanResult> {
  const c = configOf(files);
  const source = testSource(items);
  const engine = createEngine({ providers: source, cwd: c.dir });
  try {
    return await engine.plan(c.config, state, { env: {}, ...options });
  } finally {
    await engine.close();
    c.cleanup();
  }
}

describe("engine.plan on an empty state", () => {
  const main = `${PROVIDERS}
variable "prefix" {
  type    = string
  default = "app"
}
variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
locals {
  names = toset(["x", "y"])
}
resource "random_integer" "n" {
  min = 1
  max = 5
}
resource "memory_item" "counted" {
  count = 2
  name  = "\${var.prefix}-\${count.index}"
}
resource "memory_item" "each" {
  for_each = local.names
  name     = "\${var.prefix}-\${each.key}"
  value    = memory_item.counted[0].id
}
resource "memory_item" "secret" {
  name  = "s"
  value = var.secret
  tags  = { ws = terraform.workspace, mod = path.module }
}
data "memory_lookup" "later" {
  name = memory_item.each["x"].id
}
output "ids" {
  value = [for i in memory_item.counted : i.id]
}
output "sizes" {
  value = memory_item.counted[*].size
}
`;

  test("expands count and for_each, propagates unknowns, defers data sources with unknown config, plans outputs", async () => {
    const r = await planOf({ "main.tf": main }, null);
    noErrors(r);
    expect(actions(r)).toEqual({
      "data.memory_lookup.later": "read",
      'memory_item.counted[0]': "create",
      'memory_item.counted[1]': "create",
      'memory_item.each["x"]': "create",
      'memory_item.each["y"]': "create",
      "memory_item.secret": "create",
      "random_integer.n": "create",
    });
    const x = change(r, 'memory_item.each["x"]');
    expect(plain(x.after.getAttr("name"))).toBe("app-x");
    expect(x.after.getAttr("value").isKnown()).toBe(false);
    expect(x.providerConfig).toBe('provider["registry.terraform.io/hashicorp/memory"]');
    expect(x.dependencies).toEqual(["memory_item.counted"]);
    expect(x.schemaVersion).toBe(1);
    expect(x.moduleAddress).toBe("");
    const s = change(r, "memory_item.secret");
    expect(s.afterSensitivePaths).toEqual([Path.root.attr("value")]);
    expect(plain(s.after.getAttr("tags"))).toEqual({ ws: "default", mod: "." });
    expect(change(r, "data.memory_lookup.later").dependencies).toEqual(["memory_item.counted", "memory_item.each"]);
    const outs = Object.fromEntries((r.plan.outputs ?? []).map((o) => [o.name, o]));
    expect(outs["ids"]!.action).toBe("create");
    expect(outs["ids"]!.after.isWhollyKnown()).toBe(false);
    expect(plain(outs["sizes"]!.after)).toEqual([5, 5]);
    expect(r.plan.mode).toBe("normal");
    expect(r.plan.providers?.map((p) => p.address).sort()).toEqual(['provider["registry.terraform.io/hashicorp/memory"]', 'provider["registry.terraform.io/hashicorp/random"]']);
    expect(r.plan.providers?.find((p) => p.source === "registry.terraform.io/hashicorp/random")?.version).toBe("~> 3.0");
    expect(r.refreshOutcomes).toEqual([]);
  });

  test("the same configuration in JSON syntax plans the same actions", async () => {
    const json = {
      terraform: { required_providers: { memory: { source: "hashicorp/memory" } } },
      variable: { prefix: { type: "string", default: "app" } },
      resource: {
        memory_item: {
          counted: { count: 2, name: "${var.prefix}-${count.index}" },
          each: { for_each: ["x", "y"].reduce((o, k) => ({ ...o, [k]: k }), {}), name: "${var.prefix}-${each.value}", value: "${memory_item.counted[0].id}" },
        },
      },
      data: { memory_lookup: { later: { name: '${memory_item.each["x"].id}' } } },
    };
    const r = await planOf({ "main.tf.json": JSON.stringify(json) }, null);
    noErrors(r);
    expect(actions(r)).toEqual({
      "data.memory_lookup.later": "read",
      "memory_item.counted[0]": "create",
      "memory_item.counted[1]": "create",
      'memory_item.each["x"]': "create",
      'memory_item.each["y"]': "create",
    });
  });

  test("an unknown count is Terraform's error", async () => {
    const r = await planOf({ "main.tf": `${PROVIDERS}\nresource "random_integer" "n" {\n  min = 1\n  max = 3\n}\nresource "memory_item" "a" {\n  count = random_integer.n.result\n  name  = "a"\n}\n` }, null);
    const errs = r.diagnostics.filter((d) => d.severity === "error");
    expect(errs.map((d) => d.summary)).toEqual(["Invalid count argument"]);
    expect(errs[0]!.detail).toContain("cannot be determined until apply");
    expect(r.hasErrors).toBe(true);
  });

  test("a sensitive value in a non-sensitive output is refused", async () => {
    const r = await planOf({ "main.tf": `variable "s" {\n  default   = "x"\n  sensitive = true\n}\noutput "o" {\n  value = var.s\n}\n` }, null);
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary)).toEqual(["Output refers to sensitive values"]);
  });

  test("preconditions, postconditions (self), output preconditions and check assertions", async () => {
    const main = (minSize: number, want: string) =>
      `${PROVIDERS}\nvariable "want" {\n  default = "${want}"\n}\nresource "memory_item" "a" {\n  name = "abc"\n  lifecycle {\n    precondition {\n      condition     = var.want != "bad"\n      error_message = "want must not be bad"\n    }\n    postcondition {\n      condition     = self.size >= ${minSize}\n      error_message = "size \${self.size} is too small"\n    }\n  }\n}\noutput "o" {\n  value = memory_item.a.size\n  precondition {\n    condition     = var.want != "out"\n    error_message = "no output"\n  }\n}\ncheck "c" {\n  assert {\n    condition     = var.want != "warn"\n    error_message = "a warning"\n  }\n}\n`;
    const ok = await planOf({ "main.tf": main(3, "good") }, null);
    noErrors(ok);
    expect(ok.diagnostics).toEqual([]);
    const summaries = (r: EnginePlanResult) => r.diagnostics.map((d) => `${d.severity} ${d.summary}: ${d.detail}`);
    expect(summaries(await planOf({ "main.tf": main(3, "bad") }, null))).toEqual(["error Resource precondition failed: want must not be bad"]);
    expect(summaries(await planOf({ "main.tf": main(4, "good") }, null))).toEqual(["error Resource postcondition failed: size 3 is too small"]);
    expect(summaries(await planOf({ "main.tf": main(3, "out") }, null))).toEqual(["error Module output value precondition failed: no output"]);
    const warned = await planOf({ "main.tf": main(3, "warn") }, null);
    expect(summaries(warned)).toEqual(["warning Check block assertion failed: a warning"]);
    expect(warned.hasErrors).toBe(false);
  });

  test("variables: required without a value, validation, -var arguments and direct values", async () => {
    const main = `variable "n" {\n  type = number\n  validation {\n    condition     = var.n < 10\n    error_message = "n must be below 10"\n  }\n}\noutput "o" {\n  value = var.n * 2\n}\n`;
    const missing = await planOf({ "main.tf": main }, null);
    expect(missing.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary)).toEqual(["No value for required variable"]);
    const invalid = await planOf({ "main.tf": main }, null, { variableArgs: [{ kind: "var", arg: "n=12" }] });
    expect(invalid.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.summary}: ${d.detail.split("\n")[0]}`)).toEqual(["Invalid value for variable: n must be below 10"]);
    const viaArg = await planOf({ "main.tf": main }, null, { variableArgs: [{ kind: "var", arg: "n=4" }] });
    noErrors(viaArg);
    expect(plain(viaArg.plan.outputs![0]!.after)).toBe(8);
    const direct = await planOf({ "main.tf": main }, null, { variables: { n: stringVal("3") } });
    expect(plain(direct.plan.outputs![0]!.after)).toBe(6);
    // The plan keeps the value as given (terraform's plan records the caller's value, converted when applied).
    expect(plain(direct.plan.variables!["n"]!)).toBe("3");
    expect(plain(viaArg.plan.variables!["n"]!)).toBe("4");
  });

  test("a variable validation message built from a sensitive value is not shown", async () => {
    const main = `variable "s" {\n  type      = string\n  sensitive = true\n  validation {\n    condition     = length(var.s) > 100\n    error_message = "too short: \${var.s}"\n  }\n}\n`;
    const r = await planOf({ "main.tf": main }, null, { variables: { s: stringVal("hunter2-secret") } });
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.summary}: ${d.detail.split("\n")[0]}`)).toEqual(["Invalid value for variable: The error message included a sensitive value, so it will not be displayed."]);
    expect(JSON.stringify(r.diagnostics)).not.toContain("hunter2-secret");
  });

  test("references to undeclared objects are errors", async () => {
    const r = await planOf({ "main.tf": `${PROVIDERS}\nresource "memory_item" "a" {\n  name = var.nope\n  value = memory_item.b.id\n}\n` }, null);
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary).sort()).toEqual(["Reference to undeclared input variable", "Reference to undeclared resource"]);
  });
});

describe("engine.plan against a state", () => {
  const a = item({ id: "i-a", name: "a", value: "one", size: 1 });
  const b0 = item({ id: "i-b0", name: "b0", size: 2 });
  const b1 = item({ id: "i-b1", name: "b1", size: 2 });
  const old = item({ id: "i-old", name: "old", size: 3 });
  const store = (): Map<string, Value> => new Map([["i-a", a], ["i-b0", b0], ["i-b1", b1], ["i-old", old]]);
  const state = () => stateOf([["memory_item.a", a], ["memory_item.b[0]", b0], ["memory_item.b[1]", b1], ["memory_item.old", old, { dependencies: ["memory_item.a"] }]]);

  test("no-op, update, count shrink, orphans, replace on a requires-replace change; refresh outcomes", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "two"\n}\nresource "memory_item" "b" {\n  count = 1\n  name  = "b\${count.index}"\n}\nresource "memory_item" "c" {\n  name = "c"\n}\n`;
    const r = await planOf({ "main.tf": main }, state(), {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ "memory_item.a": "update", "memory_item.b[0]": "no-op", "memory_item.b[1]": "delete", "memory_item.c": "create", "memory_item.old": "delete" });
    expect(change(r, "memory_item.old").dependencies).toEqual(["memory_item.a"]);
    expect(r.refreshOutcomes.map((o) => `${o.address} ${o.result}`).sort()).toEqual(["memory_item.a in-sync", "memory_item.b[0] in-sync", "memory_item.b[1] in-sync", "memory_item.old in-sync"]);
    expect(r.plan.prior.serial).toBe(3);

    const rename = await planOf({ "main.tf": `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a2"\n  value = "one"\n}\n` }, stateOf([["memory_item.a", a]]), {}, store());
    expect(actions(rename)).toEqual({ "memory_item.a": "delete-then-create" });
    expect(change(rename, "memory_item.a").replaceReason).toBe("cannot-update");
  });

  test("drift and gone objects: refresh sees them; refresh=false does not", async () => {
    const items = store();
    items.set("i-a", item({ id: "i-a", name: "a", value: "changed outside", size: 1 }));
    items.delete("i-b0");
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "one"\n}\nresource "memory_item" "b" {\n  count = 1\n  name  = "b\${count.index}"\n}\n`;
    const st = stateOf([["memory_item.a", a], ["memory_item.b[0]", b0]]);
    const r = await planOf({ "main.tf": main }, st, {}, items);
    noErrors(r);
    expect(actions(r)).toEqual({ "memory_item.a": "update", "memory_item.b[0]": "create" });
    expect(r.refreshOutcomes.map((o) => `${o.address} ${o.result}`).sort()).toEqual(["memory_item.a changed", "memory_item.b[0] gone"]);
    expect(r.plan.drift?.map((c) => `${c.address} ${c.action}`)).toEqual(["memory_item.a update", "memory_item.b[0] delete"]);
    expect(plain(r.plan.drift![0]!.after.getAttr("value"))).toBe("changed outside");
    const refreshOnly = await planOf({ "main.tf": main }, st, { mode: "refresh-only" }, items);
    noErrors(refreshOnly);
    expect(refreshOnly.plan.changes).toEqual([]);
    expect(refreshOnly.plan.mode).toBe("refresh-only");
    expect(refreshOnly.plan.drift?.map((c) => `${c.address} ${c.action}`)).toEqual(["memory_item.a update", "memory_item.b[0] delete"]);
    expect(parsePlan(formatPlan(refreshOnly.plan)).drift?.map((c) => `${c.address} ${c.action}`)).toEqual(["memory_item.a update", "memory_item.b[0] delete"]);
    const noRefresh = await planOf({ "main.tf": main }, st, { refresh: false }, items);
    expect(actions(noRefresh)).toEqual({ "memory_item.a": "no-op", "memory_item.b[0]": "no-op" });
    expect(noRefresh.refreshOutcomes).toEqual([]);
  });

  test("ignore_changes, -replace, prevent_destroy, create_before_destroy propagation", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "ignored"\n  lifecycle {\n    ignore_changes = [value]\n  }\n}\nresource "memory_item" "b" {\n  count = 1\n  name  = "b0"\n  value = memory_item.a.value\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`;
    const st = stateOf([["memory_item.a", a], ["memory_item.b[0]", b0]]);
    const r = await planOf({ "main.tf": main }, st, { replace: ["memory_item.a"] }, store());
    noErrors(r);
    expect(actions(r)).toEqual({ "memory_item.a": "create-then-delete", "memory_item.b[0]": "update" });
    expect(change(r, "memory_item.a").replaceReason).toBe("requested");
    // The replacement is created from the configuration: ignore_changes has no prior object to ignore against (as Terraform; cli test/ignore-changes-replace.test.ts).
    expect(plain(change(r, "memory_item.a").after.getAttr("value"))).toBe("ignored");
    expect(change(r, "memory_item.a").createBeforeDestroy).toBe(true);

    const guarded = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "renamed"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n`;
    const p = await planOf({ "main.tf": guarded }, stateOf([["memory_item.a", a]]), {}, store());
    expect(p.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary)).toEqual(["Instance cannot be destroyed"]);
  });

  test("replace_triggered_by fires on an update of the referenced instance or a change of the referenced attribute", async () => {
    const main = (aValue: string, trigger: string) =>
      `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "${aValue}"\n}\nresource "memory_item" "b" {\n  count = 2\n  name  = "b\${count.index}"\n  lifecycle {\n    replace_triggered_by = [${trigger}]\n  }\n}\n`;
    const st = () => stateOf([["memory_item.a", a], ["memory_item.b[0]", b0], ["memory_item.b[1]", b1]]);
    const fired = await planOf({ "main.tf": main("two", "memory_item.a") }, st(), {}, store());
    noErrors(fired);
    expect(actions(fired)).toEqual({ "memory_item.a": "update", "memory_item.b[0]": "delete-then-create", "memory_item.b[1]": "delete-then-create" });
    expect(change(fired, "memory_item.b[0]").replaceReason).toBe("triggered");
    const attr = await planOf({ "main.tf": main("two", "memory_item.a.size") }, st(), {}, store());
    expect(actions(attr)).toEqual({ "memory_item.a": "update", "memory_item.b[0]": "no-op", "memory_item.b[1]": "no-op" });
    const quiet = await planOf({ "main.tf": main("one", "memory_item.a") }, st(), {}, store());
    expect(actions(quiet)).toEqual({ "memory_item.a": "no-op", "memory_item.b[0]": "no-op", "memory_item.b[1]": "no-op" });
  });

  test("moved blocks rename state addresses before planning (resource, instance, chain); removed blocks forget", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "renamed" {\n  name  = "a"\n  value = "one"\n}\nresource "memory_item" "b" {\n  for_each = toset(["b0"])\n  name     = each.key\n}\nmoved {\n  from = memory_item.a\n  to   = memory_item.tmp\n}\nmoved {\n  from = memory_item.tmp\n  to   = memory_item.renamed\n}\nmoved {\n  from = memory_item.b[0]\n  to   = memory_item.b["b0"]\n}\nremoved {\n  from = memory_item.old\n  lifecycle {\n    destroy = false\n  }\n}\n`;
    const r = await planOf({ "main.tf": main }, state(), {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ 'memory_item.b["b0"]': "no-op", "memory_item.b[1]": "delete", "memory_item.old": "forget", "memory_item.renamed": "no-op" });
    expect(change(r, "memory_item.renamed").previousAddress).toBe("memory_item.a");
    expect(change(r, 'memory_item.b["b0"]').previousAddress).toBe("memory_item.b[0]");
    expect(change(r, "memory_item.old").after.isNull()).toBe(true);
    // terraform's Context.plan warns once, naming every forgotten object.
    expect(r.diagnostics.filter((d) => d.severity === "warning").map((d) => [d.summary, d.detail])).toEqual([
      [
        "Some objects will no longer be managed by Terraform",
        "If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:\n - memory_item.old\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.",
      ],
    ]);
  });

  test("import blocks adopt an object into the plan (no-op or update against it); a missing id or target is an error", async () => {
    const main = (value: string, id: string, to = "memory_item.a") => `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "${value}"\n}\nimport {\n  to = ${to}\n  id = "${id}"\n}\n`;
    const same = await planOf({ "main.tf": main("one", "i-a") }, null, {}, store());
    noErrors(same);
    expect(actions(same)).toEqual({ "memory_item.a": "no-op" });
    expect(change(same, "memory_item.a").importId).toBe("i-a");
    const changed = await planOf({ "main.tf": main("two", "i-a") }, null, {}, store());
    expect(actions(changed)).toEqual({ "memory_item.a": "update" });
    const missing = await planOf({ "main.tf": main("one", "i-nope") }, null, {}, store());
    expect(missing.diagnostics.filter((d) => d.severity === "error").map((d) => d.detail).join()).toContain("Cannot import non-existent remote object");
    const stray = await planOf({ "main.tf": main("one", "i-a", "memory_item.zz") }, null, {}, store());
    expect(stray.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary)).toEqual(["Configuration for import target does not exist"]);
    const already = await planOf({ "main.tf": main("one", "i-a") }, stateOf([["memory_item.a", a]]), {}, store());
    expect(change(already, "memory_item.a").importId).toBeUndefined();
  });

  test("a tainted object is replaced; a deposed object is refreshed and destroyed with its deposed key", async () => {
    const st = stateOf([["memory_item.a", a], ["memory_item.b[0]", b0]]);
    st.resources[0]!.instances[0]!.tainted = true;
    st.resources[1]!.instances.push({ ...st.resources[1]!.instances[0]!, deposed: "00000001", attributesJson: st.resources[1]!.instances[0]!.attributesJson!.replace("i-b0", "i-b1") });
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "one"\n}\nresource "memory_item" "b" {\n  count = 1\n  name  = "b0"\n}\n`;
    const r = await planOf({ "main.tf": main }, st, {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ "memory_item.a": "delete-then-create", "memory_item.b[0]": "no-op", "memory_item.b[0] (deposed 00000001)": "delete" });
    expect(change(r, "memory_item.a").replaceReason).toBe("tainted");
    // The deposed object is refreshed too, as Terraform does (in case it was deleted outside it).
    expect(r.refreshOutcomes.map((o) => o.address).sort()).toEqual(["memory_item.a", "memory_item.b[0]", "memory_item.b[0] (deposed object 00000001)"]);
  });

  test("an unavailable provider and a canceled plan are diagnostics, not exceptions", async () => {
    const r = await planOf({ "main.tf": `resource "nothere_thing" "x" {\n  name = "x"\n}\n` }, null);
    const errs = r.diagnostics.filter((d) => d.severity === "error");
    expect(errs.map((d) => d.summary)).toEqual(["provider_unavailable"]);
    expect(errs[0]!.detail).toContain('provider["registry.terraform.io/hashicorp/nothere"]');
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    const canceled = await planOf({ "main.tf": `${PROVIDERS}\nresource "memory_item" "a" {\n  name = "a"\n}\n` }, null, { signal: aborted.signal });
    expect(canceled.hasErrors).toBe(true);
    expect(canceled.plan.changes).toEqual([]);
  });

  test("import blocks with for_each import one instance per element", async () => {
    const main = `${PROVIDERS}\nlocals {\n  ids = { a = "i-a", b0 = "i-b0" }\n}\nresource "memory_item" "e" {\n  for_each = local.ids\n  name     = each.key\n}\nimport {\n  for_each = local.ids\n  to       = memory_item.e[each.key]\n  id       = each.value\n}\n`;
    const r = await planOf({ "main.tf": main }, null, {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ 'memory_item.e["a"]': "update", 'memory_item.e["b0"]': "no-op" });
    expect(change(r, 'memory_item.e["a"]').importId).toBe("i-a");
    expect(change(r, 'memory_item.e["b0"]').importId).toBe("i-b0");
  });

  test("a data source with known configuration is read at plan and its value flows into resources", async () => {
    const main = `${PROVIDERS}\ndata "memory_lookup" "a" {\n  name = "a"\n}\nresource "memory_item" "copy" {\n  name  = "copy"\n  value = data.memory_lookup.a.value\n}\n`;
    const r = await planOf({ "main.tf": main }, null, {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ "memory_item.copy": "create" });
    expect(plain(change(r, "memory_item.copy").after.getAttr("value"))).toBe("one");
    expect(change(r, "memory_item.copy").dependencies).toEqual(["data.memory_lookup.a"]);
  });

  test("a data source scoped in a check block that cannot be read is a warning", async () => {
    const main = `${PROVIDERS}\ncheck "exists" {\n  data "memory_lookup" "x" {\n    name = "nope"\n  }\n  assert {\n    condition     = data.memory_lookup.x.id != ""\n    error_message = "missing"\n  }\n}\n`;
    const r = await planOf({ "main.tf": main }, null, {}, store());
    expect(r.hasErrors).toBe(false);
    expect(r.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
    // As terraform: the provider's own words, as a warning (the check's assertion is skipped).
    expect(r.diagnostics[0]!.summary).toBe("no such item");
  });

  test("a data source whose depends_on has pending changes is deferred", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "two"\n}\ndata "memory_lookup" "a" {\n  name       = "a"\n  depends_on = [memory_item.a]\n}\n`;
    const r = await planOf({ "main.tf": main }, stateOf([["memory_item.a", a]]), {}, store());
    noErrors(r);
    expect(actions(r)).toEqual({ "data.memory_lookup.a": "read", "memory_item.a": "update" });
  });

  test("destroy mode deletes every object in state; outputs are deleted", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name  = "a"\n  value = "one"\n}\noutput "v" {\n  value = memory_item.a.value\n}\n`;
    const st = stateOf([["memory_item.a", a], ["memory_item.old", old]]);
    st.outputs.set("v", { valueJson: '"one"', typeJson: '"string"', sensitive: false });
    const c = configOf({ "main.tf": main });
    const engine = createEngine({ providers: testSource(store()), cwd: c.dir });
    try {
      const r = await engine.destroy(c.config, st, { env: {} });
      noErrors(r);
      expect(actions(r)).toEqual({ "memory_item.a": "delete", "memory_item.old": "delete" });
      expect(r.plan.mode).toBe("destroy");
      expect(r.plan.outputs?.map((o) => `${o.name} ${o.action}`)).toEqual(["v delete"]);
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("the apply scope re-evaluates an instance's configuration with applied values", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "a" {\n  name = "a"\n}\nresource "memory_item" "b" {\n  name  = "b"\n  value = memory_item.a.id\n}\noutput "b" {\n  value = memory_item.b.value\n}\n`;
    const r = await planOf({ "main.tf": main }, null);
    noErrors(r);
    const applied = new Map<string, Value>([["memory_item.a", item({ id: "i-9", name: "a", size: 1 })]]);
    const values = { instance: (addr: string) => applied.get(addr) };
    const cfg = await r.applyScope.instanceConfig(change(r, "memory_item.b"), values);
    expect(plain(cfg.getAttr("value"))).toBe("i-9");
    applied.set("memory_item.b", item({ id: "i-10", name: "b", value: "i-9", size: 1 }));
    const outs = await r.applyScope.outputs(values);
    expect(outs["b"]!.value.rawEquals(stringVal("i-9"))).toBe(true);
  });

  test("a saved plan keeps the planner's fields, and its apply scope re-evaluates the configuration", async () => {
    const main = `${PROVIDERS}\nvariable "v" {\n  default   = "vv"\n  sensitive = true\n}\ndata "memory_lookup" "a" {\n  name = "a"\n}\nresource "memory_item" "b" {\n  count = 2\n  name  = "b\${count.index}"\n  value = data.memory_lookup.a.id\n  tags  = { v = var.v }\n}\nresource "memory_item" "c" {\n  name  = "c"\n  value = memory_item.b[1].id\n}\noutput "c" {\n  value = memory_item.c.value\n}\n`;
    const c = configOf({ "main.tf": main });
    const engine = createEngine({ providers: testSource(store()), cwd: c.dir });
    try {
      const r = await engine.plan(c.config, stateOf([["memory_item.b[0]", b0]]), { env: {} });
      noErrors(r);
      const back = parsePlan(formatPlan(r.plan));
      expect(back.identity).toBe(r.plan.identity);
      expect(back.mode).toBe("normal");
      expect(back.providers).toEqual(r.plan.providers);
      expect(back.outputs?.map((o) => `${o.name} ${o.action}`)).toEqual(["c create"]);
      expect(back.variables?.["v"]?.asString()).toBe("vv");
      expect(back.dataReads?.["data.memory_lookup.a"]?.getAttr("id").asString()).toBe("i-a");
      const b1 = back.changes.find((x) => x.address === "memory_item.b[1]")!;
      expect(b1).toMatchObject({ moduleAddress: "", providerConfig: 'provider["registry.terraform.io/hashicorp/memory"]', dependencies: ["data.memory_lookup.a"], schemaVersion: 1, createBeforeDestroy: false });
      expect(b1.afterSensitivePaths?.map(String)).toEqual(r.plan.changes.find((x) => x.address === "memory_item.b[1]")!.afterSensitivePaths?.map(String));
      expect(b1.afterSensitivePaths?.length).toBe(1);
      const scope = await engine.applyScope(c.config, back);
      const applied = new Map<string, Value>([["memory_item.b[1]", item({ id: "i-77", name: "b1", value: "i-a", size: 2 })]]);
      const cfg = await scope.instanceConfig(back.changes.find((x) => x.address === "memory_item.c")!, { instance: (a) => applied.get(a) });
      expect(plain(cfg.getAttr("value"))).toBe("i-77");
      const bcfg = await scope.instanceConfig(b1, { instance: (a) => applied.get(a) });
      expect(plain(bcfg.getAttr("value"))).toBe("i-a");
      expect(plain(await scope.providerConfig('provider["registry.terraform.io/hashicorp/memory"]', { instance: () => undefined }))).toEqual({ id_prefix: null });
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});

/** A memory provider source whose objects outlive each provider instance (ids stay unique across instances). */
function sharedSource(items = new Map<string, Value>()): ProviderSource & { readonly items: Map<string, Value> } {
  let serial = 0;
  const inner = testSource(items);
  return {
    items,
    async open(source: string) {
      if (source !== MEMORY) return inner.open(source);
      const n = ++serial;
      const p = createMemoryProvider({ items });
      const provider: Provider = {
        ...p,
        configure: (config, ...rest) => p.configure(objectVal({ ...config.attributes(), id_prefix: stringVal(`m${n}-`) }), ...rest),
        applyResourceChange: async (...args) => {
          try {
            return await p.applyResourceChange(...args);
          } finally {
            items.clear();
            for (const [k, v] of p.items) items.set(k, v);
          }
        },
      };
      return { provider, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  };
}

/** testSource with every open, configure and close logged by source. */
function loggedSource(log: string[], items = new Map<string, Value>()): ProviderSource {
  const inner = testSource(items);
  return {
    async open(source, options) {
      const opened = await inner.open(source, options);
      const name = source.split("/").pop()!;
      log.push(`open ${name}`);
      const provider: Provider = { ...opened.provider, configure: async (...args) => (log.push(`configure ${name}`), opened.provider.configure(...args)) };
      return { ...opened, provider, close: async () => (log.push(`close ${name}`), opened.close()) };
    },
  };
}

describe("providers kept from a plan for its apply", () => {
  const main = `${PROVIDERS}\nresource "random_integer" "n" {\n  min = 1\n  max = 9\n}\nresource "memory_item" "a" {\n  count = 2\n  name  = "a\${count.index}"\n  value = tostring(random_integer.n.result)\n}\n`;

  test("an apply of the plan's result launches and configures nothing again; close() reaps everything", async () => {
    const c = configOf({ "main.tf": main });
    const log: string[] = [];
    const engine = createEngine({ providers: loggedSource(log), cwd: c.dir });
    try {
      const planned = await engine.plan(c.config, null, { env: {} });
      noErrors(planned);
      expect(log.filter((l) => l.startsWith("close"))).toEqual([]);
      const applied = await engine.apply(planned, { persist: async () => undefined });
      expect(applied.success).toBe(true);
      expect(log.filter((l) => l.startsWith("open")).sort()).toEqual(["open memory", "open random"]);
      expect(log.filter((l) => l.startsWith("configure")).sort()).toEqual(["configure memory", "configure random"]);
      // The apply closed them at its end.
      expect(log.filter((l) => l.startsWith("close")).sort()).toEqual(["close memory", "close random"]);
      // A destroy plan and its apply: again one launch each.
      const destroy = await engine.destroy(c.config, applied.state, { env: {}, refresh: false });
      noErrors(destroy);
      await engine.apply(destroy, { persist: async () => undefined, state: applied.state });
      expect(log.filter((l) => l.startsWith("open"))).toHaveLength(4);
      // A plan not applied stays open until close().
      await engine.plan(c.config, null, { env: {} });
      expect(log.filter((l) => l.startsWith("close"))).toHaveLength(4);
    } finally {
      await engine.close();
      c.cleanup();
    }
    expect(log.filter((l) => l.startsWith("close"))).toHaveLength(6);
  });

  test("a failed plan, keepProvidersMs 0 and another plan's result keep nothing; idle kept providers are closed after keepProvidersMs", async () => {
    const c = configOf({ "main.tf": main });
    const log: string[] = [];
    const closes = (): number => log.filter((l) => l.startsWith("close")).length;
    const engine = createEngine({ providers: loggedSource(log), cwd: c.dir });
    const bad = configOf({ "main.tf": `${main}\nresource "memory_item" "b" {\n  name = 1 + "x"\n}\n` });
    try {
      const failed = await engine.plan(bad.config, null, { env: {} });
      expect(failed.hasErrors).toBe(true);
      expect(closes()).toBe(log.filter((l) => l.startsWith("open")).length);
      // The result of a plan that is no longer kept (a newer plan replaced it) gets fresh providers.
      const first = await engine.plan(c.config, null, { env: {} });
      const second = await engine.plan(c.config, null, { env: {} });
      expect(second.hasErrors).toBe(false);
      const opens = log.filter((l) => l.startsWith("open")).length;
      await engine.apply(first, { persist: async () => undefined });
      expect(log.filter((l) => l.startsWith("open")).length).toBe(opens + 2);
    } finally {
      await engine.close();
      bad.cleanup();
    }
    expect(closes()).toBe(log.filter((l) => l.startsWith("open")).length);

    const log0: string[] = [];
    const closing = createEngine({ providers: loggedSource(log0), cwd: c.dir, keepProvidersMs: 0 });
    await closing.plan(c.config, null, { env: {} });
    expect(log0.filter((l) => l.startsWith("close"))).toHaveLength(2);
    await closing.close();

    const idle: string[] = [];
    const timed = createEngine({ providers: loggedSource(idle), cwd: c.dir, keepProvidersMs: 20 });
    try {
      await timed.plan(c.config, null, { env: {} });
      for (let i = 0; i < 600 && idle.filter((l) => l.startsWith("close")).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(idle.filter((l) => l.startsWith("close")).sort()).toEqual(["close memory", "close random"]);
    } finally {
      await timed.close();
      c.cleanup();
    }
    expect(() => createEngine({ providers: loggedSource([]), keepProvidersMs: -1 })).toThrow(/keepProvidersMs/);
  });
});

describe("engine.apply", () => {
  const main = `${PROVIDERS}\nresource "random_integer" "n" {\n  min = 1\n  max = 9\n}\nresource "memory_item" "a" {\n  count = 2\n  name  = "a\${count.index}"\n  value = tostring(random_integer.n.result)\n}\noutput "v" {\n  value = memory_item.a[1].value\n}\n`;

  test("planned_change events carry the delete and read reasons", async () => {
    const source = sharedSource();
    const first = configOf({ "main.tf": main });
    const engine = createEngine({ providers: source, cwd: first.dir });
    try {
      const planned = await engine.plan(first.config, null, { env: {} });
      noErrors(planned);
      const applied = await engine.apply(planned, { persist: async () => undefined });
      expect(applied.success).toBe(true);
      const shrunk = configOf({ "main.tf": `${main.replace("count = 2", "count = 1").replace("memory_item.a[1].value", "memory_item.a[0].value")}check "c" {\n  data "memory_lookup" "l" { name = "a0" }\n  assert {\n    condition     = data.memory_lookup.l.name == "a0"\n    error_message = "no a0"\n  }\n}\n` });
      const events: string[] = [];
      const again = await engine.plan(shrunk.config, applied.state, { env: {}, onEvent: (e) => void (e.type === "planned_change" && events.push(`${e.address} ${e.action} ${e.reason ?? ""}`)) });
      noErrors(again);
      expect(events).toEqual(expect.arrayContaining(["memory_item.a[1] delete delete_because_count_index", "data.memory_lookup.l read read_because_check_nested"]));
    } finally {
      await engine.close();
    }
  });

  test("data source instances the configuration no longer has leave the state (module instances gone, a module call moved, a count shrunk, a data source removed), saved plans too", async () => {
    const module = `terraform {\n  required_providers {\n    memory = { source = "hashicorp/memory" }\n  }\n}\nvariable "in" {\n  type = string\n}\nresource "memory_item" "v" {\n  name = var.in\n}\ndata "memory_lookup" "d" {\n  name = memory_item.v.name\n}\n`;
    const step1 = configOf({
      "main.tf": `${PROVIDERS}\nmodule "m" {\n  source = "./m"\n  count  = 2\n  in     = "i\${count.index}"\n}\nresource "memory_item" "r" {\n  count = 2\n  name  = "r\${count.index}"\n}\ndata "memory_lookup" "c" {\n  count = 2\n  name  = memory_item.r[count.index].name\n}\ndata "memory_lookup" "e" {\n  name = memory_item.r[0].name\n}\nmodule "k" {\n  source = "./m"\n  in     = "k"\n}\n`,
      "m/main.tf": module,
    });
    const step2 = configOf({
      "main.tf": `${PROVIDERS}\nmodule "m" {\n  source   = "./m"\n  for_each = toset(["a"])\n  in       = each.key\n}\nresource "memory_item" "r" {\n  count = 2\n  name  = "r\${count.index}"\n}\ndata "memory_lookup" "c" {\n  count = 1\n  name  = memory_item.r[count.index].name\n}\nmodule "l" {\n  source = "./m"\n  in     = "k"\n}\nmoved {\n  from = module.k\n  to   = module.l\n}\n`,
      "m/main.tf": module,
    });
    const engine = createEngine({ providers: sharedSource(), cwd: step1.dir });
    const data = (st: StateFile): string[] => st.resources.filter((r) => r.mode === "data").flatMap((r) => r.instances.map((i) => `${formatModuleInstance(r.module)}|${r.name}${i.indexKey === undefined ? "" : `[${String(i.indexKey)}]`}`)).sort();
    try {
      const first = await engine.plan(step1.config, null, { env: {} });
      noErrors(first);
      const applied = await engine.apply(first, { persist: async () => undefined });
      expect(applied.success).toBe(true);
      expect(data(applied.state)).toEqual(["module.k|d", "module.m[0]|d", "module.m[1]|d", "|c[0]", "|c[1]", "|e"]);
      const second = await engine.plan(step2.config, applied.state, { env: {} });
      noErrors(second);
      // As terraform's orphaned data instances: not changes, left out of the refreshed state the apply starts from.
      expect([...(second.plan.dataRemovals ?? [])].sort()).toEqual(["data.memory_lookup.c[1]", "data.memory_lookup.e", "module.k.data.memory_lookup.d", "module.m[0].data.memory_lookup.d", "module.m[1].data.memory_lookup.d"]);
      expect(second.plan.changes.filter((c) => c.mode === "data").map((c) => `${c.address} ${c.action}`)).toEqual(['module.m["a"].data.memory_lookup.d read']);
      const saved = parsePlan(formatPlan(second.plan));
      expect(saved.dataRemovals).toEqual(second.plan.dataRemovals);
      const again = await engine.apply(saved, { persist: async () => undefined, state: applied.state, config: step2.dir });
      expect(again.success).toBe(true);
      expect(data(again.state)).toEqual(["module.l|d", 'module.m["a"]|d', "|c[0]"]);
      // A destroy plan removes nothing this way (its apply empties the state).
      const destroy = await engine.destroy(step2.config, again.state, { env: {}, refresh: false });
      expect(destroy.plan.dataRemovals).toBeUndefined();
    } finally {
      await engine.close();
      step1.cleanup();
      step2.cleanup();
    }
  });

  test("plan, apply through a persist callback, plan again: no changes; the state was persisted after every object", async () => {
    const c = configOf({ "main.tf": main });
    const source = sharedSource();
    const engine = createEngine({ providers: source, cwd: c.dir });
    try {
      const events: string[] = [];
      const first = await engine.plan(c.config, null, { env: {}, onEvent: (e) => events.push(e.type === "planned_change" ? `${e.type} ${e.address} ${e.action}` : e.type) });
      noErrors(first);
      expect(events).toEqual(["planned_change memory_item.a[0] create", "planned_change memory_item.a[1] create", "planned_change random_integer.n create", "change_summary"]);
      const saved: StateFile[] = [];
      const applied = await engine.apply(first, { persist: async (s) => void saved.push(s) });
      expect(applied.diagnostics).toEqual([]);
      expect(applied.success).toBe(true);
      expect(saved.length).toBeGreaterThanOrEqual(3);
      expect(source.items.size).toBe(2);
      const n = applied.state.outputs.get("v");
      expect(n?.valueJson).toBe(JSON.stringify(String(applied.outputs["v"]!.value.asString())));
      const refreshEvents: string[] = [];
      const again = await engine.plan(c.config, applied.state, { env: {}, onEvent: (e) => void refreshEvents.push(e.type === "refresh_start" || e.type === "refresh_complete" ? `${e.type} ${e.address} ${e.idValue ?? ""}` : e.type) });
      noErrors(again);
      expect(again.plan.changes.filter((x) => x.action !== "no-op")).toEqual([]);
      const id0 = applied.state.resources.find((x) => x.name === "a")!.instances.map((i) => (JSON.parse(i.attributesJson ?? "{}") as { id: string }).id)[0]!;
      expect(refreshEvents.filter((e) => e.startsWith("refresh_")).sort()).toEqual(
        expect.arrayContaining([`refresh_complete memory_item.a[0] ${id0}`, `refresh_start memory_item.a[0] ${id0}`]),
      );
      expect(refreshEvents.filter((e) => e.startsWith("refresh_"))).toHaveLength(6);
      expect(refreshEvents.at(-1)).toBe("change_summary");
      await expect(engine.apply(first, { persist: async () => undefined, state: applied.state })).rejects.toMatchObject({ code: "stale_plan" });
      await expect(engine.apply(first.plan, { persist: async () => undefined })).rejects.toMatchObject({ code: "invalid_argument" });
      await expect(engine.apply(first, {})).rejects.toMatchObject({ code: "invalid_argument" });
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("a saved plan applies into a StateStore with its configuration; a refresh-only apply writes the refreshed objects", async () => {
    const c = configOf({ "main.tf": main });
    const source = sharedSource();
    const engine = createEngine({ providers: source, cwd: c.dir });
    const dir = mkdtempSync(join(tmpdir(), "engine-apply-"));
    try {
      const store = createLocalBackend({ dir }).store("default");
      const first = await engine.plan(c.dir, null, { env: {} });
      noErrors(first);
      const saved = parsePlan(formatPlan(first.plan));
      const r = await engine.apply(saved, { store, config: c.dir });
      expect(r.success).toBe(true);
      const stored = await loadState(store);
      expect(stored?.serial).toBeGreaterThanOrEqual(1);
      expect(stored?.resources.map((x) => x.name).sort()).toEqual(["a", "n"]);

      // Drift outside magma: a refresh-only plan has no changes; its apply writes what was read.
      const [id0, obj] = [...source.items].find(([, v]) => v.getAttr("name").asString() === "a0")!;
      source.items.set(id0, objectVal({ ...obj.attributes(), value: stringVal("outside") }));
      const refresh = await engine.plan(c.dir, stored!, { env: {}, mode: "refresh-only" });
      noErrors(refresh);
      expect(refresh.plan.changes).toEqual([]);
      expect(refresh.plan.drift?.map((x) => `${x.address} ${x.action}`)).toEqual(["memory_item.a[0] update"]);
      const rr = await engine.apply(refresh, { store });
      expect(rr.diagnostics).toEqual([]);
      expect(rr.success).toBe(true);
      const after = await loadState(store);
      expect(after!.serial).toBe(stored!.serial + 1);
      const a0 = after!.resources.find((x) => x.name === "a")!.instances.find((i) => i.indexKey === 0)!;
      expect(JSON.parse(a0.attributesJson ?? "{}").value).toBe("outside");
      const normal = await engine.plan(c.dir, after!, { env: {} });
      expect(actions(normal)["memory_item.a[0]"]).toBe("update");
    } finally {
      await engine.close();
      c.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a destroy's apply deletes every object and removes every output, without re-evaluating them", async () => {
    const c = configOf({ "main.tf": main });
    const source = sharedSource();
    const engine = createEngine({ providers: source, cwd: c.dir });
    try {
      const first = await engine.plan(c.config, null, { env: {} });
      const r = await engine.apply(first, { persist: async () => undefined });
      expect(r.success).toBe(true);
      expect([...r.state.outputs.keys()]).toEqual(["v"]);
      const d = await engine.destroy(c.config, r.state, { env: {} });
      noErrors(d);
      const gone = await engine.apply(d, { persist: async () => undefined, state: r.state });
      expect(gone.diagnostics).toEqual([]);
      expect(gone.success).toBe(true);
      expect(gone.state.resources.flatMap((x) => x.instances)).toEqual([]);
      expect(gone.state.outputs.size).toBe(0);
      expect(source.items.size).toBe(0);
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("the refresh guard refuses a plan whose refresh found most objects gone, unless allowMassLoss", async () => {
    const c = configOf({ "main.tf": main });
    const source = sharedSource();
    const engine = createEngine({ providers: source, cwd: c.dir });
    try {
      const first = await engine.plan(c.config, null, { env: {} });
      const r = await engine.apply(first, { persist: async () => undefined });
      expect(r.success).toBe(true);
      source.items.clear();
      const refused = await engine.plan(c.config, r.state, { env: {} });
      expect(refused.hasErrors).toBe(true);
      expect(refused.diagnostics.find((d) => d.severity === "error")?.summary).toBe("Refusing to use the refresh");
      await expect(engine.apply(refused, { persist: async () => undefined, state: r.state })).rejects.toMatchObject({ code: "invalid_argument" });
      const allowed = await engine.plan(c.config, r.state, { env: {}, allowMassLoss: true });
      noErrors(allowed);
      expect(actions(allowed)).toMatchObject({ "memory_item.a[0]": "create", "memory_item.a[1]": "create" });
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});

describe("engine.import", () => {
  test("imports an existing object into state at a configured address; the next plan has no changes; Terraform's refusals", async () => {
    const main = `${PROVIDERS}\nresource "memory_item" "x" {\n  count = 1\n  name  = "x"\n}\n`;
    const c = configOf({ "main.tf": main });
    const source = sharedSource(new Map([["i-x", item({ id: "i-x", name: "x", size: 1 })]]));
    const engine = createEngine({ providers: source, cwd: c.dir });
    try {
      const saved: StateFile[] = [];
      const r = await engine.import(c.config, null, "memory_item.x[0]", "i-x", { env: {}, persist: async (s) => void saved.push(s) });
      expect(r.imported.object.state.getAttr("name").asString()).toBe("x");
      expect(saved).toHaveLength(1);
      expect(saved[0]!.serial).toBe(1);
      const inst = r.state.resources.find((x) => x.name === "x")?.instances[0];
      expect(inst?.indexKey).toBe(0);
      expect(JSON.parse(inst?.attributesJson ?? "{}")).toMatchObject({ id: "i-x", name: "x" });
      const again = await engine.plan(c.config, r.state, { env: {} });
      noErrors(again);
      expect(actions(again)).toEqual({ "memory_item.x[0]": "no-op" });

      await expect(engine.import(c.config, r.state, "memory_item.x[0]", "i-x", { env: {}, persist: async () => undefined })).rejects.toMatchObject({ code: "already_managed" });
      await expect(engine.import(c.config, null, "memory_item.y", "i-x", { env: {}, persist: async () => undefined })).rejects.toMatchObject({ name: "PlanDiagnosticsError", message: expect.stringContaining("Configuration for import target does not exist") });
      await expect(engine.import(c.config, null, "memory_item.x[0]", "i-missing", { env: {}, persist: async () => undefined })).rejects.toMatchObject({ code: "import_not_found" });
      await expect(engine.import(c.config, null, "memory_item.x[0]", "i-x", { env: {} })).rejects.toMatchObject({ code: "invalid_argument" });
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});
