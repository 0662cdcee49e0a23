// @magma/plugin re-exports every runtime name of @magma/provider-api unchanged (the same
// objects, not wrappers), so one import serves and errors stay one class.
import * as api from "@magma/provider-api";
import * as plugin from "./index.js";

test("every runtime export of @magma/provider-api is re-exported as the same object", () => {
  const missing = Object.keys(api).filter((name) => !(name in plugin));
  expect(missing).toEqual([]);
  for (const name of Object.keys(api)) {
    expect((plugin as Record<string, unknown>)[name]).toBe((api as Record<string, unknown>)[name]);
  }
});

test("every type exported by @magma/provider-api is re-exported by name", async () => {
  const { readFileSync } = await import("node:fs");
  const { fileURLToPath } = await import("node:url");
  const typeNames = (file: string): Set<string> => {
    const text = readFileSync(fileURLToPath(new URL(file, import.meta.url)), "utf8");
    const names = new Set<string>();
    for (const m of text.matchAll(/export type \{([^}]*)\}/g)) {
      for (const n of m[1]!.split(",")) if (n.trim() !== "") names.add(n.trim().split(/\s+as\s+/).pop()!);
    }
    return names;
  };
  const apiTypes = typeNames("../../provider-api/src/index.ts");
  const ours = typeNames("./index.ts");
  expect([...apiTypes].filter((n) => !ours.has(n))).toEqual([]);
});
