import fc from "fast-check";
import { objectVal, stringVal, type Value } from "@magma/cty";
import { diagnosticsError, errorDiag, partiallyAppliedError, transportError, warningDiag } from "@magma/provider-api";
import type { MemoryProvider } from "@magma/provider-api/testing";
import type { CreateConflictInput } from "../apply/create-conflict.js";
import { applyInstance } from "../instance/apply-instance.js";
import type { InstanceTarget } from "../instance/instance-target.js";
import { planInstance } from "../instance/plan-instance.js";
import { itemConfig, memoryTarget } from "../instance/test-support.js";
import type { PlainConfig } from "@magma/provider-api";
import { createImportOnConflict, isAlreadyExists, type ImportOnConflictDecision, type ImportOnConflictOptions } from "./import-on-conflict.js";

const A = "memory_item.a";
const EXISTS = "creating memory_item: ParameterAlreadyExists: The parameter already exists. To overwrite this value, set the overwrite option in the request to true.";

/**
 * An in-memory provider whose create fails with an "already exists" diagnostic when an
 * item keyed by the configured name is stored (as an API whose names are unique would).
 */
async function conflictingTarget(): Promise<{ memory: MemoryProvider; target: InstanceTarget; applies: () => number }> {
  let applies = 0;
  const t = await memoryTarget({
    wrap: (m) => ({
      applyResourceChange: (typeName, prior, planned, config, options) => {
        applies++;
        if (prior.isNull() && !planned.isNull() && m.items.has(planned.getAttr("name").asString())) {
          return Promise.reject(diagnosticsError([errorDiag(EXISTS, undefined)], "applyResourceChange"));
        }
        return m.applyResourceChange(typeName, prior, planned, config, options);
      },
    }),
  });
  return { ...t, applies: () => applies };
}

/** Stores an item under `key` (its `id`), as if created outside magma. */
async function existing(memory: MemoryProvider, key: string, plain: PlainConfig): Promise<Value> {
  const scratch = await memoryTarget();
  const made = await applyInstance(scratch.target, await planInstance(scratch.target, { address: A, typeName: "memory_item", prior: null, config: itemConfig(plain) }));
  const state = objectVal({ ...made.object!.state.attributes(), id: stringVal(key) });
  memory.items.set(key, state);
  return state;
}

/** Plans and applies a create of `plain`, returning the conflict input the apply walk would hand the handler. */
async function failedCreate(target: InstanceTarget, plain: PlainConfig): Promise<CreateConflictInput> {
  const config = itemConfig(plain);
  const change = await planInstance(target, { address: A, typeName: "memory_item", prior: null, config });
  const r = await applyInstance(target, change);
  expect(r.error).toBeDefined();
  expect(r.object).toBeNull();
  return { target, change, config, error: r.error };
}

function recorder(options: ImportOnConflictOptions): { handler: ReturnType<typeof createImportOnConflict>; decisions: ImportOnConflictDecision[] } {
  const decisions: ImportOnConflictDecision[] = [];
  return { handler: createImportOnConflict({ ...options, onDecision: (d) => decisions.push(d) }), decisions };
}

const byName: ImportOnConflictOptions = { types: ["memory_item"], idRules: { memory_item: "name" } };

describe("createImportOnConflict: adoption", () => {
  it("adopts the existing object by a per-type id rule, confirms it, and applies the remaining update", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha", value: "old", tags: { team: "x" } });
    const input = await failedCreate(target, { name: "alpha", value: "new", tags: { team: "x" } });
    const { handler, decisions } = recorder(byName);
    const adoption = await handler(input);
    expect(adoption).toBeDefined();
    expect(adoption!.id).toBe("alpha");
    expect(adoption!.error).toBeUndefined();
    expect(adoption!.object.tainted).toBe(false);
    expect(adoption!.object.state.getAttr("value").asString()).toBe("new");
    expect(adoption!.object.state.getAttr("id").asString()).toBe("alpha");
    expect(memory.items.get("alpha")!.getAttr("value").asString()).toBe("new");
    expect(memory.items.size).toBe(1); // nothing created, nothing replaced
    expect(memory.calls.get("importResourceState")).toBe(1);
    expect(decisions.map((d) => [d.outcome, d.id])).toEqual([["adopted", "alpha"]]);
    expect(decisions[0]!.detail).toContain("adopted the existing object \"alpha\" and updated it");
  });

  it("adopts without an update when the existing object already matches (no-op)", async () => {
    const { memory, target, applies } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha", value: "same" });
    const input = await failedCreate(target, { name: "alpha", value: "same" });
    const before = applies();
    const { handler, decisions } = recorder(byName);
    const adoption = await handler(input);
    expect(adoption!.object.state.rawEquals(memory.items.get("alpha")!)).toBe(true);
    expect(applies()).toBe(before);
    expect(decisions[0]!.detail).toContain("already matches the configuration");
  });

  it("is enabled globally with all: true, using the planned id when the provider plans a known one", async () => {
    const t = await memoryTarget({
      wrap: (m) => ({
        // A provider that knows the id at plan time (the id is the name).
        planResourceChange: async (typeName, prior, proposed, config, options) => {
          const p = await m.planResourceChange(typeName, prior, proposed, config, options);
          return prior.isNull() && !p.plannedState.isNull() ? { ...p, plannedState: objectVal({ ...p.plannedState.attributes(), id: p.plannedState.getAttr("name") }) } : p;
        },
        applyResourceChange: (typeName, prior, planned, config, options) =>
          prior.isNull() && m.items.has(planned.getAttr("name").asString()) ? Promise.reject(diagnosticsError([errorDiag("Conflict", "googleapi: Error 409: The resource 'alpha' already exists, alreadyExists")])) : m.applyResourceChange(typeName, prior, planned, config, options),
      }),
    });
    await existing(t.memory, "alpha", { name: "alpha", value: "old" });
    const input = await failedCreate(t.target, { name: "alpha", value: "new" });
    const { handler, decisions } = recorder({ all: true });
    const adoption = await handler(input);
    expect(adoption?.id).toBe("alpha");
    expect(t.memory.items.get("alpha")!.getAttr("value").asString()).toBe("new");
    expect(decisions.map((d) => d.outcome)).toEqual(["adopted"]);
  });

  it("handles the create half of a replace: the conflicting new name is adopted, the old object was already destroyed", async () => {
    const { memory, target } = await conflictingTarget();
    // In state: "old" (ours). Configured now: "alpha", which someone already created outside.
    const ours = (await applyInstance(target, await planInstance(target, { address: A, typeName: "memory_item", prior: null, config: itemConfig({ name: "old", value: "v" }) }))).object!;
    await existing(memory, "alpha", { name: "alpha", value: "outside" });
    const config = itemConfig({ name: "alpha", value: "v" });
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: ours, config });
    expect(change.action).toBe("delete-then-create");
    const r = await applyInstance(target, change);
    expect(r.object).toBeNull(); // destroyed, then the create conflicted
    const adoption = await createImportOnConflict(byName)({ target, change, config, error: r.error });
    expect(adoption?.id).toBe("alpha");
    expect(adoption!.object.state.getAttr("value").asString()).toBe("v");
    expect([...memory.items.keys()]).toEqual(["alpha"]);
  });

  it("carries the warnings of the import, read, plan and apply", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha", value: "old" });
    const input = await failedCreate(target, { name: "alpha", value: "warn" });
    const adoption = await createImportOnConflict(byName)(input);
    expect(adoption!.warnings.map((w) => w.summary)).toContain("memory_item was asked to warn");
  });

  it("adopts but reports the error when the remaining update fails; state records the object as adopted", async () => {
    const { memory, target } = await conflictingTarget();
    const before = await existing(memory, "alpha", { name: "alpha", value: "old" });
    const input = await failedCreate(target, { name: "alpha", value: "fail" });
    const { handler, decisions } = recorder(byName);
    const adoption = await handler(input);
    expect(adoption!.error).toMatchObject({ name: "ProviderError", code: "diagnostics" });
    expect(adoption!.object.state.rawEquals(before)).toBe(true);
    expect(decisions.map((d) => d.outcome)).toEqual(["adopted-update-failed"]);
  });
});

describe("createImportOnConflict: never on a guess", () => {
  it("is off by default and for types not enabled: no provider call", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha" });
    const input = await failedCreate(target, { name: "alpha", value: "new" });
    for (const options of [{}, { types: ["other_type"] }, { all: false }]) {
      const { handler, decisions } = recorder(options);
      expect(await handler(input)).toBeUndefined();
      expect(decisions.map((d) => d.outcome)).toEqual(["not-enabled"]);
    }
    expect(memory.calls.get("importResourceState") ?? 0).toBe(0);
  });

  it("ignores failures that are not conflicts: other diagnostics, a partial apply, a transport error", async () => {
    const { target } = await conflictingTarget();
    const input = await failedCreate(target, { name: "beta", value: "fail" });
    const { handler, decisions } = recorder(byName);
    expect(await handler(input)).toBeUndefined();
    expect(await handler({ ...input, error: partiallyAppliedError(input.change.after, new Uint8Array(), [errorDiag(EXISTS)]) })).toBeUndefined();
    expect(await handler({ ...input, error: transportError("connection reset: already exists") })).toBeUndefined();
    expect(decisions.map((d) => d.outcome)).toEqual(["not-a-conflict", "not-a-conflict", "not-a-conflict"]);
  });

  it("without an id rule or a known planned id there is no id: not adopted", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha" });
    const input = await failedCreate(target, { name: "alpha", value: "new" });
    const { handler, decisions } = recorder({ types: ["memory_item"] });
    expect(await handler(input)).toBeUndefined();
    expect(decisions.map((d) => d.outcome)).toEqual(["no-id"]);
    expect(memory.calls.get("importResourceState") ?? 0).toBe(0);
  });

  it("an object the import cannot find is not adopted", async () => {
    const { target } = await conflictingTarget();
    const input = await failedCreate(target, { name: "ghost", value: "fail" });
    const { handler, decisions } = recorder({ ...byName, conflictRules: { memory_item: /refused/ } });
    expect(await handler(input)).toBeUndefined();
    expect(decisions.map((d) => [d.outcome, d.id])).toEqual([["not-found", "ghost"]]);
  });

  it("refuses an object whose identifying attribute differs from the configuration", async () => {
    const { memory, target } = await conflictingTarget();
    const other = await existing(memory, "alpha", { name: "someone-elses", value: "theirs" });
    const input = await failedCreate(target, { name: "alpha", value: "new" });
    const { handler, decisions } = recorder(byName);
    expect(await handler(input)).toBeUndefined();
    expect(decisions.map((d) => d.outcome)).toEqual(["identity-mismatch"]);
    expect(decisions[0]!.detail).toContain('its name is "someone-elses", the configuration\'s is "alpha"');
    expect(memory.items.get("alpha")!.rawEquals(other)).toBe(true); // untouched
  });

  it("compares marked (sensitive) configuration values by value, and never prints them", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha", value: "x", tags: { owner: "them" } });
    const input = await failedCreate(target, { name: "alpha", value: "x", tags: { owner: "us" } });
    const marked = objectVal({ ...input.config.attributes(), tags: input.config.getAttr("tags").mark("sensitive") });
    const { handler, decisions } = recorder({ ...byName, identity: { memory_item: ["name", "tags"] } });
    expect(await handler({ ...input, config: marked })).toBeUndefined();
    expect(decisions[0]!.detail).toContain("its tags differs from the configuration's (sensitive value)");
    expect(decisions[0]!.detail).not.toContain("them");
    const same = objectVal({ ...input.config.attributes(), name: input.config.getAttr("name").mark("sensitive") });
    const ok = recorder({ ...byName, identity: { memory_item: ["name"] } });
    expect(await ok.handler({ ...input, config: same })).toBeDefined();
  });

  it("per-type identity attributes: an ownership tag that differs refuses; an unset one cannot confirm", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha", value: "x", tags: { owner: "them" } });
    const opts: ImportOnConflictOptions = { ...byName, identity: { memory_item: ["name", "tags"] } };
    const { handler, decisions } = recorder(opts);
    expect(await handler(await failedCreate(target, { name: "alpha", tags: { owner: "us" } }))).toBeUndefined();
    expect(await handler(await failedCreate(target, { name: "alpha" }))).toBeUndefined();
    expect(decisions.map((d) => d.outcome)).toEqual(["identity-mismatch", "identity-mismatch"]);
    expect(decisions[1]!.detail).toContain("its tags cannot be confirmed: the configuration's value is null");
    expect(await handler(await failedCreate(target, { name: "alpha", value: "y", tags: { owner: "them" } }))).toBeDefined();
  });

  it("a replace whose new object conflicts with the object being replaced does not adopt that object (it would be destroyed as deposed)", async () => {
    const { memory, target } = await conflictingTarget();
    const old = await existing(memory, "alpha", { name: "alpha", value: "v1" });
    const config = itemConfig({ name: "alpha", value: "v2" });
    const change = await planInstance(target, { address: A, typeName: "memory_item", prior: { state: old, private: new Uint8Array(), tainted: false }, config, createBeforeDestroy: true, replaceRequested: true });
    expect(change.action).toBe("create-then-delete");
    const r = await applyInstance(target, change);
    expect(r.error).toBeDefined(); // the new "alpha" conflicts with the old "alpha"
    const { handler, decisions } = recorder(byName);
    expect(await handler({ target, change, config, error: r.error })).toBeUndefined();
    expect(decisions.map((d) => d.outcome)).toEqual(["is-replaced-object"]);
    expect(memory.items.get("alpha")!.rawEquals(old)).toBe(true);
  });

  it("never routes a conflict to replace: an object that would have to be replaced is not adopted", async () => {
    const { memory, target, applies } = await conflictingTarget();
    // Found under the id the rule derives, matching the declared identity (value), but its name — which forces replacement — differs.
    const stored = await existing(memory, "key-alpha", { name: "alpha-old", value: "v" });
    memory.items.set("alpha", stored); // makes the create of "alpha" conflict
    const input = await failedCreate(target, { name: "alpha", value: "v" });
    const before = applies();
    const { handler, decisions } = recorder({ types: ["memory_item"], idRules: { memory_item: (i) => `key-${i.config.getAttr("name").asString()}` }, identity: { memory_item: ["value"] } });
    expect(await handler(input)).toBeUndefined();
    expect(decisions.map((d) => [d.outcome, d.id])).toEqual([["would-replace", "key-alpha"]]);
    expect(decisions[0]!.detail).toMatch(/forces replacement \(.*name.*\), and a conflict is never resolved by replacing/);
    expect(applies()).toBe(before); // nothing destroyed or created
    expect(memory.items.get("key-alpha")!.rawEquals(stored)).toBe(true);
  });
});

describe("createImportOnConflict: options", () => {
  it("refuses malformed options", () => {
    expect(() => createImportOnConflict({ idRules: { memory_item: "" } })).toThrow(/id rule of memory_item must be an attribute name or a function/);
    expect(() => createImportOnConflict({ idRules: { memory_item: () => "x" } })).toThrow(/is a function, so its identifying attributes must be given \(identity\.memory_item\)/);
    expect(() => createImportOnConflict({ identity: { memory_item: [] } })).toThrow(/identity\.memory_item must be a non-empty list/);
  });

  it("an id rule naming an attribute the type does not have is a programming error (invalid_argument)", async () => {
    const { memory, target } = await conflictingTarget();
    await existing(memory, "alpha", { name: "alpha" });
    const input = await failedCreate(target, { name: "alpha", value: "new" });
    await expect(createImportOnConflict({ types: ["memory_item"], idRules: { memory_item: "nope" } })(input)).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("isAlreadyExists", () => {
  const diag = (summary: string, detail?: string): unknown => diagnosticsError([errorDiag(summary, detail)]);
  it.each([
    ["AWS error code (aws-sdk-go-v2)", "creating SSM Parameter (/app/db): operation error SSM: PutParameter, https response error StatusCode: 400, RequestID: 1, ParameterAlreadyExists: The parameter already exists."],
    ["an …AlreadyExistsException", "creating CloudWatch Logs Log Group (g): ResourceAlreadyExistsException: The specified log group already exists"],
    ["IAM's EntityAlreadyExists", "creating IAM Role (r): EntityAlreadyExists: Role with name r already exists."],
    ["the phrase", "A resource with the ID \"/subscriptions/x/resourceGroups/rg\" already exists - to be managed via Terraform this resource needs to be imported into the State."],
    ["HTTP 409 in aws-sdk-go-v2", "operation error Foo: CreateBar, https response error StatusCode: 409, RequestID: 1, ConflictException: conflict"],
    ["googleapi 409", "Error creating Network: googleapi: Error 409: The resource 'projects/p/global/networks/n' already exists, alreadyExists"],
    ["409 Conflict", "POST https://api.example.com/things: 409 Conflict"],
  ])("recognises %s", (_name, summary) => {
    expect(isAlreadyExists("any_type", diag(summary))).toBe(true);
  });

  it.each([
    ["not found", "reading SSM Parameter (/x): ParameterNotFound"],
    ["a validation error", "https response error StatusCode: 400, ValidationException: bad name"],
    ["a throttle", "StatusCode: 4090 ThrottlingException"],
    ["a 500", "StatusCode: 500, InternalError"],
  ])("does not recognise %s", (_name, summary) => {
    expect(isAlreadyExists("any_type", diag(summary))).toBe(false);
  });

  it("looks only at error diagnostics of a diagnostics error", () => {
    expect(isAlreadyExists("t", diagnosticsError([warningDiag("already exists"), errorDiag("boom")]))).toBe(false);
    expect(isAlreadyExists("t", diagnosticsError([errorDiag("Create failed", "the thing already exists")]))).toBe(true);
    expect(isAlreadyExists("t", new Error("ParameterAlreadyExists"))).toBe(false);
    expect(isAlreadyExists("t", transportError("already exists"))).toBe(false);
  });

  it("per-type rules: built-in (S3's BucketAlreadyOwnedByYou), custom regexp or function, generic patterns can be turned off", () => {
    const owned = diag("creating S3 Bucket (b): BucketAlreadyOwnedByYou: Your previous request to create the named bucket succeeded and you already own it.");
    expect(isAlreadyExists("aws_s3_bucket", owned)).toBe(true);
    expect(isAlreadyExists("aws_other", owned)).toBe(false);
    const custom = diag("E_DUPLICATE_NAME");
    expect(isAlreadyExists("x_thing", custom, { conflictRules: { x_thing: /E_DUPLICATE/ } })).toBe(true);
    expect(isAlreadyExists("x_thing", custom, { conflictRules: { x_thing: (ds) => ds.some((d) => d.summary.startsWith("E_DUP")) } })).toBe(true);
    expect(isAlreadyExists("x_thing", diag("already exists"), { genericPatterns: false })).toBe(false);
  });

  it("properties: a marker anywhere in an error diagnostic is recognised; warnings, other errors and disabled patterns never are", () => {
    const marker = fc.constantFrom("ParameterAlreadyExists", "ResourceAlreadyExistsException", "already exists", "Already Exists", "StatusCode: 409", "409 Conflict", "googleapi: Error 409");
    const text = fc.string({ maxLength: 40 }).map((t) => t.replace(/[A-Za-z0-9]$/, "$& "));
    fc.assert(
      fc.property(text, marker, fc.string({ maxLength: 40 }), fc.boolean(), (before, m, after, inDetail) => {
        const line = `${before} ${m} ${after.replace(/^[A-Za-z0-9]/, " $&")}`;
        const d = inDetail ? errorDiag("create failed", line) : errorDiag(line);
        expect(isAlreadyExists("t", diagnosticsError([d]))).toBe(true);
        expect(isAlreadyExists("t", diagnosticsError([warningDiag(line), errorDiag("boom")]))).toBe(false);
        expect(isAlreadyExists("t", diagnosticsError([d]), { genericPatterns: false })).toBe(false);
        expect(isAlreadyExists("t", transportError(line))).toBe(false);
        expect(isAlreadyExists("t", new Error(line))).toBe(false);
      }),
    );
  });
});
