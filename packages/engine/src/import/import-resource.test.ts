import { warningDiag, type Provider } from "@magma/provider-api";
import { applyInstance } from "../instance/apply-instance.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { planInstance } from "../instance/plan-instance.js";
import { itemConfig, memoryTarget } from "../instance/test-support.js";
import type { MemoryProvider } from "@magma/provider-api/testing";
import { importResource } from "./import-resource.js";

const A = "memory_item.a";

async function create(target: InstanceTarget, name: string, value?: string): Promise<InstanceObject> {
  const config = itemConfig(value === undefined ? { name } : { name, value });
  const r = await applyInstance(target, await planInstance(target, { address: A, typeName: "memory_item", prior: null, config }));
  return r.object!;
}

async function withItem(wrap?: (p: MemoryProvider) => Partial<Provider>): Promise<{ memory: MemoryProvider; target: InstanceTarget; id: string; obj: InstanceObject }> {
  const t = await memoryTarget(wrap === undefined ? {} : { wrap });
  const obj = await create(t.target, "alpha", "v1");
  return { ...t, id: obj.state.getAttr("id").asString(), obj };
}

describe("importResource (terraform import ADDR ID)", () => {
  it("imports one object: ImportResourceState, then a confirming ReadResource with the import's private data; the result is what state records", async () => {
    const privates: Uint8Array[] = [];
    const { target, memory, id, obj } = await withItem((m) => ({
      readResource: async (t, s, o) => {
        privates.push(o?.private ?? new Uint8Array());
        const r = await m.readResource(t, s, o);
        return r.gone ? r : { ...r, private: Uint8Array.of(7, 7) };
      },
    }));
    const before = memory.calls.get("readResource") ?? 0;
    const r = await importResource(target, { address: A, typeName: "memory_item", id });
    expect(r.address).toBe(A);
    expect(r.typeName).toBe("memory_item");
    expect(r.id).toBe(id);
    expect(r.schemaVersion).toBe(1);
    expect(r.object.state.rawEquals(obj.state)).toBe(true);
    expect(r.object.tainted).toBe(false);
    expect(r.object.private).toEqual(Uint8Array.of(7, 7)); // the read's private data, not the import's
    expect(memory.calls.get("importResourceState")).toBe(1);
    expect((memory.calls.get("readResource") ?? 0) - before).toBe(1);
    expect(new TextDecoder().decode(privates.at(-1))).toBe('{"memory":1}'); // the read got the import's
  });

  it("nothing with the id: Terraform's \"Import returned no resources\" (import_not_found), no read", async () => {
    const { target, memory } = await withItem();
    await expect(importResource(target, { address: A, typeName: "memory_item", id: "item-404" })).rejects.toMatchObject({
      name: "EngineError",
      code: "import_not_found",
      message: expect.stringContaining("Import returned no resources: While attempting to import with ID item-404, the provider returned no instance states") as unknown,
    });
    expect(memory.calls.get("readResource") ?? 0).toBe(0);
  });

  it("an object the confirming read finds gone: \"Cannot import non-existent remote object\" naming the address", async () => {
    const { target, id } = await withItem(() => ({ readResource: () => Promise.resolve({ gone: true, warnings: [] }) }));
    const e = importResource(target, { address: A, typeName: "memory_item", id });
    await expect(e).rejects.toMatchObject({ code: "import_not_found" });
    await expect(e).rejects.toThrow('Cannot import non-existent remote object: While attempting to import an existing object to "memory_item.a", the provider detected that no object exists with the given id.');
  });

  it("several objects: \"Multiple import states not supported\" (import_multiple), before any read", async () => {
    const { target, memory, id } = await withItem((m) => ({
      importResourceState: async (t, i, o) => {
        const r = (await m.importResourceState(t, i, o))!;
        return { ...r, resources: [r.resources[0]!, r.resources[0]!] };
      },
    }));
    const before = memory.calls.get("readResource") ?? 0;
    await expect(importResource(target, { address: A, typeName: "memory_item", id })).rejects.toMatchObject({
      code: "import_multiple",
      message: expect.stringContaining(`Multiple import states not supported: While attempting to import with ID ${id}, the provider returned multiple resource instance states (2: memory_item, memory_item)`) as unknown,
    });
    expect(memory.calls.get("readResource") ?? 0).toBe(before);
  });

  it("one object of another type: import_type_mismatch", async () => {
    const { target, id } = await withItem((m) => ({
      importResourceState: async (t, i, o) => {
        const r = (await m.importResourceState(t, i, o))!;
        return { ...r, resources: [{ ...r.resources[0]!, typeName: "memory_other" }] };
      },
    }));
    await expect(importResource(target, { address: A, typeName: "memory_item", id })).rejects.toMatchObject({
      code: "import_type_mismatch",
      message: expect.stringContaining("the provider returned an object of type memory_other, but the import target has type memory_item") as unknown,
    });
  });

  it("an address state already holds: \"Resource already managed by Terraform\", without calling the provider", async () => {
    const { target, memory, id } = await withItem();
    await expect(importResource(target, { address: A, typeName: "memory_item", id, alreadyManaged: true })).rejects.toMatchObject({
      code: "already_managed",
      message: "[already_managed] Resource already managed by Terraform: Terraform is already managing a remote object for memory_item.a. To import to this address you must first remove the existing object from the state.",
    });
    expect(memory.calls.get("importResourceState") ?? 0).toBe(0);
  });

  it("a deferral is refused; a type the provider does not have is the provider's unknown_type", async () => {
    const { target, id } = await withItem(() => ({ importResourceState: () => Promise.resolve({ resources: [], warnings: [], deferred: { reason: "provider_config_unknown" } }) }));
    await expect(importResource(target, { address: A, typeName: "memory_item", id })).rejects.toMatchObject({ code: "unexpected_deferral" });
    await expect(importResource(target, { address: "memory_nope.a", typeName: "memory_nope", id })).rejects.toMatchObject({ name: "ProviderError", code: "unknown_type" });
  });

  it("carries the warnings of the import and of the read", async () => {
    const { target, id } = await withItem((m) => ({
      importResourceState: async (t, i, o) => ({ ...(await m.importResourceState(t, i, o))!, warnings: [warningDiag("import warning")] }),
      readResource: async (t, s, o) => ({ ...(await m.readResource(t, s, o)), warnings: [warningDiag("read warning")] }),
    }));
    const r = await importResource(target, { address: A, typeName: "memory_item", id });
    expect(r.warnings.map((w) => w.summary)).toEqual(["import warning", "read warning"]);
  });
});
