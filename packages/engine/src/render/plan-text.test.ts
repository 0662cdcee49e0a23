import { Path, listVal, listValEmpty, mapVal, nullVal, numberVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { impliedType, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { PlanAction } from "../plan/plan-action.js";
import { createPlan, type Plan } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { planText } from "./plan-text.js";

const itemType = impliedType(memoryItemBlock);
function item(fields: Record<string, Value>): Value {
  const base: Record<string, Value> = {};
  for (const [k, t] of Object.entries(itemType.attributes)) base[k] = nullVal(t);
  return objectVal({ ...base, ...fields });
}
function change(address: string, action: PlanAction, before: Value, after: Value, extra: Partial<PlannedInstanceChange> = {}): PlannedInstanceChange {
  return { address, mode: "managed", typeName: "memory_item", action, before, after, config: nullVal(itemType), requiresReplace: [], priorPrivate: new Uint8Array(), plannedPrivate: new Uint8Array(), priorTainted: false, legacyTypeSystem: false, warnings: [], ...extra };
}
function plan(changes: PlannedInstanceChange[], extra: Partial<Plan> = {}): Plan {
  return { ...createPlan({ changes, prior: { lineage: "l", serial: 1 }, configDigest: "c" }), ...extra };
}

let schemas: Map<string, ProviderSchema>;
beforeAll(async () => {
  schemas = new Map([["example.com/magma/memory", await createMemoryProvider().getSchema()]]);
});

describe("planText", () => {
  test("no changes, per plan mode", () => {
    expect(planText(plan([]), { schemas })).toBe(
      "\nNo changes. Your infrastructure matches the configuration.\n\nTerraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n",
    );
    expect(planText(plan([], { mode: "destroy" }), { schemas })).toContain("No changes. No objects need to be destroyed.");
  });

  test("outputs only", () => {
    const text = planText(plan([], { outputs: [{ name: "o", action: "update", before: stringVal("a"), after: stringVal("b"), sensitive: false }, { name: "long_name", action: "create", before: nullVal(stringType), after: unknownVal(stringType), sensitive: false }] }), { schemas });
    expect(text).toBe(
      '\nChanges to Outputs:\n  + long_name = (known after apply)\n  ~ o         = "a" -> "b"\n\nYou can apply this plan to save these new output values to the Terraform\nstate, without changing any real infrastructure.\n',
    );
  });

  test("a sensitive output's empty string is null to terraform's renderer: not shown when created, a create or a delete when changed (terraform 1.11.4's words)", () => {
    const out = (name: string, action: "create" | "update", before: Value, after: Value) => ({ name, action, before, after, sensitive: true });
    const created = planText(plan([], { outputs: [out("o", "create", nullVal(stringType), stringVal("")), { name: "p", action: "create", before: nullVal(stringType), after: stringVal("v"), sensitive: false }] }), { schemas });
    expect(created).toBe('\nChanges to Outputs:\n  + p = "v"\n\nYou can apply this plan to save these new output values to the Terraform\nstate, without changing any real infrastructure.\n');
    expect(planText(plan([], { outputs: [out("o", "create", nullVal(stringType), stringVal(""))] }), { schemas })).toContain("No changes. Your infrastructure matches the configuration.");
    expect(planText(plan([], { outputs: [out("o", "update", stringVal(""), stringVal("x"))] }), { schemas })).toContain("\nChanges to Outputs:\n  + o = (sensitive value)\n");
    expect(planText(plan([], { outputs: [out("o", "update", stringVal("x"), stringVal(""))] }), { schemas })).toContain("\nChanges to Outputs:\n  - o = (sensitive value) -> null\n");
  });

  test("an update: identifying attributes kept, sensitive values hidden, forces replacement, list context", () => {
    const before = item({ id: stringVal("i-1"), name: stringVal("n"), value: stringVal("old"), size: numberVal(1), tags: mapVal({ a: stringVal("1") }) });
    const after = item({ id: stringVal("i-1"), name: stringVal("n2"), value: stringVal("new"), size: numberVal(1), tags: mapVal({ a: stringVal("1") }), rule: listVal([objectVal({ port: numberVal(1), protocol: stringVal("tcp") })]) });
    const text = planText(
      plan([change("memory_item.x", PlanAction.DeleteThenCreate, before, after, { requiresReplace: [Path.root.attr("name")], replaceReason: "cannot-update", afterSensitivePaths: [Path.root.attr("value")] })]),
      { schemas },
    );
    expect(text).toContain('  # memory_item.x must be replaced\n-/+ resource "memory_item" "x" {\n        id    = "i-1"\n      ~ name  = "n" -> "n2" # forces replacement\n        tags  = {\n            "a" = "1"\n        }\n      # Warning: this attribute value will be marked as sensitive and will not\n      # display in UI output after applying this change.\n      ~ value = (sensitive value)\n        # (1 unchanged attribute hidden)\n\n      + rule {\n          + port     = 1\n          + protocol = "tcp"\n        }\n    }\n');
    expect(text).toContain("Plan: 1 to add, 0 to change, 1 to destroy.");
  });

  test("a forgotten object, as terraform 1.11.4 prints random_password under removed { destroy = false }", async () => {
    const { createRandomProvider } = await import("@magma/provider-random");
    const { configValue } = await import("@magma/provider-api");
    const random = await createRandomProvider().getSchema();
    const entry = random.resources.get("random_password")!;
    const state = configValue(entry.block, {
      bcrypt_hash: "$2a$10$x",
      id: "none",
      length: 8,
      lower: true,
      min_lower: 0,
      min_numeric: 0,
      min_special: 0,
      min_upper: 0,
      number: true,
      numeric: true,
      result: "pw",
      special: true,
      upper: true,
    });
    const forget: PlannedInstanceChange = { ...change("random_password.pw", PlanAction.Forget, state, nullVal(entry.type)), typeName: "random_password" };
    const text = planText(plan([forget]), { schemas: new Map([["example.com/magma/random", random]]) });
    expect(text).toContain(
      ' # random_password.pw will no longer be managed by Terraform, but will not be destroyed\n # (destroy = false is set in the configuration)\n . resource "random_password" "pw" {\n        id          = "none"\n        # (12 unchanged attributes hidden)\n    }\n',
    );
    expect(text).toContain("Plan: 0 to add, 0 to change, 0 to destroy.");
  });
  test("color: terraform's colour markup (symbols, bold headings, red forces replacement, grey notes), the same text once the escapes are removed", () => {
    const before = item({ id: stringVal("i-1"), name: stringVal("n"), value: stringVal("old"), size: numberVal(1), tags: mapVal({ a: stringVal("1"), b: stringVal("2") }) });
    const after = item({ id: stringVal("i-1"), name: stringVal("n2"), value: stringVal("new"), size: numberVal(1), tags: mapVal({ a: stringVal("1") }), rule: listVal([objectVal({ port: numberVal(1), protocol: stringVal("tcp") })]) });
    const gone = item({ id: stringVal("i-9"), name: stringVal("g") });
    const p = plan(
      [
        change("memory_item.x", PlanAction.DeleteThenCreate, before, after, { requiresReplace: [Path.root.attr("name")], replaceReason: "cannot-update" }),
        change("memory_item.y", PlanAction.Delete, gone, nullVal(itemType)),
      ],
      { outputs: [{ name: "o", action: "create", before: nullVal(stringType), after: unknownVal(stringType), sensitive: true }] },
    );
    const coloured = planText(p, { schemas, color: true });
    const esc = "\x1b";
    expect(coloured).toContain(`${esc}[31m-${esc}[0m/${esc}[32m+${esc}[0m destroy and then create replacement${esc}[0m\n`);
    expect(coloured).toContain(`${esc}[1m  # memory_item.x${esc}[0m must be ${esc}[1m${esc}[31mreplaced${esc}[0m\n${esc}[0m${esc}[31m-${esc}[0m/${esc}[32m+${esc}[0m${esc}[0m resource "memory_item" "x" {\n`);
    expect(coloured).toContain(`      ${esc}[33m~${esc}[0m${esc}[0m name  = "n" ${esc}[33m->${esc}[0m${esc}[0m "n2" ${esc}[31m# forces replacement${esc}[0m${esc}[0m\n`);
    expect(coloured).toContain(`          ${esc}[31m-${esc}[0m${esc}[0m "b" = "2" ${esc}[90m-> null${esc}[0m${esc}[0m\n`);
    expect(coloured).toContain(`${esc}[90m# (1 unchanged attribute hidden)${esc}[0m${esc}[0m`);
    expect(coloured).toContain(`${esc}[1m  # memory_item.y${esc}[0m will be ${esc}[1m${esc}[31mdestroyed${esc}[0m\n`);
    expect(coloured).toContain(`\n${esc}[1mPlan:${esc}[0m 1 to add, 0 to change, 2 to destroy.\n${esc}[0m`);
    expect(coloured).toContain(`\nChanges to Outputs:\n  ${esc}[32m+${esc}[0m${esc}[0m o = (sensitive value)\n`);
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, "")).toBe(planText(p, { schemas }));
    expect(planText(plan([]), { schemas, color: true })).toBe(
      `\n${esc}[0m${esc}[1m${esc}[32mNo changes.${esc}[0m${esc}[1m Your infrastructure matches the configuration.${esc}[0m\n\n${esc}[0mTerraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n`,
    );
  });
});

describe("write-only attributes", () => {
  const woBlock = {
    attributes: {
      id: { type: stringType, computed: true },
      name: { type: stringType, required: true },
      secret_wo: { type: stringType, optional: true, writeOnly: true },
    },
    blockTypes: { cred: { nesting: "list" as const, block: { attributes: { user: { type: stringType, optional: true }, password_wo: { type: stringType, optional: true, writeOnly: true } } } } },
  };
  const woType = impliedType(woBlock);
  const credType = impliedType(woBlock.blockTypes.cred.block);
  const obj = (id: Value, name: string, creds: string[]): Value =>
    objectVal({ id, name: stringVal(name), secret_wo: nullVal(stringType), cred: creds.length === 0 ? listValEmpty(credType) : listVal(creds.map((u) => objectVal({ user: stringVal(u), password_wo: nullVal(stringType) }))) });
  const text = async (action: PlanAction, before: Value, after: Value, block: typeof woBlock | typeof nestedBlock = woBlock, extra: Partial<PlannedInstanceChange> = {}): Promise<string> => {
    const memory = await createMemoryProvider().getSchema();
    const type = impliedType(block);
    const withWo = new Map([["example.com/magma/memory", { ...memory, resources: new Map([...memory.resources, ["memory_wo", { version: 0, block, type }]]) }]]);
    return planText(plan([{ ...change("memory_wo.x", action, before, after, extra), typeName: "memory_wo", config: nullVal(type) }]), { schemas: withWo });
  };
  const nestedBlock = {
    attributes: {
      name: { type: stringType, required: true },
      login: {
        optional: true,
        nestedType: {
          nesting: "single" as const,
          attributes: { user: { type: stringType, optional: true }, token_wo: { type: stringType, optional: true, writeOnly: true }, pin_wo: { type: stringType, optional: true, writeOnly: true, sensitive: true } },
        },
      },
    },
  };
  const login = (user: string): Value => objectVal({ user: stringVal(user), token_wo: nullVal(stringType), pin_wo: nullVal(stringType) });
  const nested = (name: string, user: string): Value => objectVal({ name: stringVal(name), login: login(user) });

  test("inside a nested attribute type: shown with the object's action, sensitive as its value (Terraform's writeOnlyRenderer), hidden in an update", async () => {
    const loginPath = Path.root.attr("login");
    // token_wo's configured value was sensitive (the plan's paths); pin_wo's schema says so.
    const created = await text(PlanAction.Create, nullVal(impliedType(nestedBlock)), nested("a", "u"), nestedBlock, { afterSensitivePaths: [loginPath.attr("token_wo")] });
    expect(created).toContain(
      '  + resource "memory_wo" "x" {\n      + login = {\n          + pin_wo   = (sensitive, write-only attribute)\n          + token_wo = (sensitive, write-only attribute)\n          + user     = "u"\n        }\n      + name  = "a"\n    }\n',
    );
    const plain = await text(PlanAction.Create, nullVal(impliedType(nestedBlock)), nested("a", "u"), nestedBlock);
    expect(plain).toContain("          + token_wo = (write-only attribute)\n");
    const updated = await text(PlanAction.Update, nested("a", "u"), nested("a", "v"), nestedBlock);
    expect(updated).toContain('      ~ login = {\n          ~ user     = "u" -> "v"\n            # (2 unchanged attributes hidden)\n        }\n');
    const deleted = await text(PlanAction.Delete, nested("a", "u"), nullVal(impliedType(nestedBlock)), nestedBlock);
    expect(deleted).toContain("          - pin_wo   = (sensitive, write-only attribute) -> null\n          - token_wo = (write-only attribute) -> null\n");
  });

  test("shown with the block's action whatever their value (Terraform's computeDiffForWriteOnlyAttribute), hidden in an update", async () => {
    const created = await text(PlanAction.Create, nullVal(woType), obj(unknownVal(stringType), "a", ["u"]));
    expect(created).toContain('  + resource "memory_wo" "x" {\n      + id        = (known after apply)\n      + name      = "a"\n      + secret_wo = (write-only attribute)\n\n      + cred {\n          + password_wo = (write-only attribute)\n          + user        = "u"\n        }\n    }\n');
    const updated = await text(PlanAction.Update, obj(stringVal("i"), "a", ["u"]), obj(stringVal("i"), "b", ["u"]));
    expect(updated).toContain('  ~ resource "memory_wo" "x" {\n        id        = "i"\n      ~ name      = "a" -> "b"\n        # (1 unchanged attribute hidden)\n\n        # (1 unchanged block hidden)\n    }\n');
    const deleted = await text(PlanAction.Delete, obj(stringVal("i"), "a", []), nullVal(woType));
    expect(deleted).toContain('  - resource "memory_wo" "x" {\n      - id        = "i" -> null\n      - name      = "a" -> null\n      - secret_wo = (write-only attribute) -> null\n    }\n');
  });
});
