import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dynamicType, emptyObjectVal, nullVal, numberVal, objectVal, Path, stringType, stringVal, tupleVal, unknownVal, type Value } from "@magma/cty";
import { createTerraformProvider } from "./terraform-provider.js";

const data = (input: Value, triggers: Value = nullVal(dynamicType)): Value =>
  objectVal({ id: nullVal(stringType), input, output: nullVal(dynamicType), triggers_replace: triggers });

async function configured(dir = tmpdir()): Promise<ReturnType<typeof createTerraformProvider>> {
  const p = createTerraformProvider({ dir, env: {} });
  await p.configure(emptyObjectVal, "1.11.4");
  return p;
}

describe("terraform_data", () => {
  test("create plans an unknown id and output of the input's type; apply copies input to output", async () => {
    const p = await configured();
    const cfg = data(stringVal("x"));
    const plan = await p.planResourceChange("terraform_data", nullVal(cfg.type), cfg, cfg);
    expect(plan.plannedState.getAttr("id").isKnown()).toBe(false);
    expect(plan.plannedState.getAttr("output").rawEquals(unknownVal(stringType))).toBe(true);
    const applied = await p.applyResourceChange("terraform_data", nullVal(cfg.type), plan.plannedState, cfg);
    expect(applied.newState.getAttr("output").asString()).toBe("x");
    expect(applied.newState.getAttr("id").asString()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test("a changed trigger replaces; a changed input only recomputes the output; no change plans the prior", async () => {
    const p = await configured();
    const prior = objectVal({ id: stringVal("i"), input: stringVal("x"), output: stringVal("x"), triggers_replace: tupleVal([numberVal(1)]) });
    const same = objectVal({ ...prior.attributes() });
    expect((await p.planResourceChange("terraform_data", prior, same, data(stringVal("x"), tupleVal([numberVal(1)])))).plannedState.rawEquals(prior)).toBe(true);
    const trig = objectVal({ ...prior.attributes(), triggers_replace: tupleVal([numberVal(2)]) });
    const r = await p.planResourceChange("terraform_data", prior, trig, data(stringVal("x"), tupleVal([numberVal(2)])));
    expect(r.requiresReplace.map((x) => x.toString())).toEqual([Path.root.attr("triggers_replace").toString()]);
    expect(r.plannedState.getAttr("id").isKnown()).toBe(false);
    const inp = objectVal({ ...prior.attributes(), input: stringVal("y") });
    const u = await p.planResourceChange("terraform_data", prior, inp, data(stringVal("y"), tupleVal([numberVal(1)])));
    expect(u.requiresReplace).toEqual([]);
    expect(u.plannedState.getAttr("id").asString()).toBe("i");
    expect(u.plannedState.getAttr("output").isKnown()).toBe(false);
  });

  test("import takes the id, every other attribute null", async () => {
    const p = await configured();
    const [r] = (await p.importResourceState("terraform_data", "abc"))!.resources;
    expect(r!.state.getAttr("id").asString()).toBe("abc");
    expect(r!.state.getAttr("input").isNull()).toBe(true);
  });
});

describe("terraform_remote_state", () => {
  const cfg = (backend: string, config: Value, extra: Record<string, Value> = {}): Value =>
    objectVal({ backend: stringVal(backend), config, defaults: nullVal(dynamicType), outputs: nullVal(dynamicType), workspace: nullVal(stringType), ...extra });

  test("reads a local state's outputs with their types, over defaults, relative to the working directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-remote-state-"));
    try {
      writeFileSync(
        join(dir, "a.tfstate"),
        JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: 1, lineage: "l", outputs: { s: { value: "v", type: "string" }, l: { value: [1], type: ["list", "number"], sensitive: true } }, resources: [] }),
      );
      const p = await configured(dir);
      const r = await p.readDataSource("terraform_remote_state", cfg("local", objectVal({ path: stringVal("a.tfstate") }), { defaults: objectVal({ s: stringVal("d"), x: stringVal("dx") }) }));
      const out = r.state.getAttr("outputs");
      expect(out.getAttr("s").asString()).toBe("v");
      expect(out.getAttr("x").asString()).toBe("dx");
      expect(out.getAttr("l").type.kind).toBe("list");
      await expect(p.readDataSource("terraform_remote_state", cfg("local", objectVal({ path: stringVal("none.tfstate") })))).rejects.toMatchObject({
        code: "diagnostics",
        message: expect.stringContaining("Unable to find remote state"),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an unknown backend type or setting is terraform's 'Invalid backend configuration'", async () => {
    const p = await configured();
    await expect(p.readDataSource("terraform_remote_state", cfg("nope", nullVal(dynamicType)))).rejects.toMatchObject({ message: expect.stringContaining('There is no backend type named "nope"') });
    await expect(p.readDataSource("terraform_remote_state", cfg("local", objectVal({ foo: stringVal("x") })))).rejects.toMatchObject({
      message: expect.stringContaining("unexpected attribute"),
    });
  });
});
