// Issue 20 item 5 (second point) at the engine API level: an unresolved reference or an
// unknown value never reaches a provider as literal text. Every provider call is recorded
// (a recording wrapper over the native random provider); no ApplyResourceChange carries an
// unknown value and no call carries a literal "${".
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPlan, ProviderPool, type ApplyScope } from "@magma/engine";
import { createRandomProvider } from "@magma/provider-random";
import { createLocalBackend, loadState, newStateFile, saveState } from "@magma/state";
import { engineFor, nativeSource, workDir, type RecordedCall } from "./engine-support.js";

const calls: RecordedCall[] = [];
const source = nativeSource(createRandomProvider, calls);
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "magma-unres-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HCL = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

resource "random_string" "a" {
  length  = 8
  special = false
}

resource "random_string" "b" {
  length  = 8
  special = false
  keepers = { from_a = random_string.a.result }
}
`;

/**
 * No call carried a literal "${"; no ApplyResourceChange carried an unknown configuration
 * (its arguments are prior, planned, config: the planned state may hold unknown computed
 * attributes, as in Terraform, the configuration may not).
 */
function expectClean(recorded: readonly RecordedCall[]): void {
  expect(recorded.filter((c) => c.args.some((a) => a.includes("${")))).toEqual([]);
  expect(recorded.filter((c) => c.op === "applyResourceChange" && c.known[2] !== true)).toEqual([]);
}

describe("nothing unresolved reaches a provider", () => {
  test.each([
    ["without an apply scope (the plan's values as they are)", false],
    ["with an apply scope that still answers an unknown", true],
  ])("a configuration value unknown at apply time is refused before the provider's apply: %s", async (_name, brokenScope) => {
    const w = workDir({ "main.tf": HCL });
    const engine = engineFor(source, w.dir);
    const store = createLocalBackend({ dir: join(root, `unknown-${String(brokenScope)}`) }).store("default");
    try {
      const state = newStateFile();
      const planned = await engine.plan(w.dir, state, { env: {} });
      expect(planned.hasErrors).toBe(false);
      const b = planned.plan.changes.find((c) => c.address === "random_string.b")!;
      expect(b.config.isWhollyKnown()).toBe(false); // keepers.from_a is known only after a's create
      const scope: ApplyScope | undefined = brokenScope
        ? { ...planned.applyScope, instanceConfig: async (change, values) => (change.address === "random_string.b" ? change.config : planned.applyScope.instanceConfig(change, values)) }
        : undefined;
      const n = calls.length;
      const pool = new ProviderPool(source);
      let result;
      try {
        result = await applyPlan(planned.plan, { providers: pool, state, ...(scope !== undefined ? { scope } : {}), persist: async (s) => void (await saveState(store, s)) });
      } finally {
        await pool.close();
      }
      const during = calls.slice(n);
      expectClean(during);
      expect(result.applied.map((a) => a.address)).toEqual(["random_string.a"]);
      expect(result.failed.map((f) => f.address)).toEqual(["random_string.b"]);
      const message = `${(result.failed[0]!.error as Error).message} ${JSON.stringify(result.failed[0]!.diagnostics)}`;
      expect(message).toMatch(/unknown/i);
      // b never reached the provider in this apply: the only apply is a's.
      expect(during.filter((c) => c.op === "planResourceChange")).toHaveLength(1);
      expect(during.filter((c) => c.op === "applyResourceChange")).toHaveLength(1);
      const st = (await loadState(store))!;
      // b stays as terraform leaves a resource whose instance failed before storing anything: with no instances.
      expect(st.resources.map((r) => [r.name, r.instances.length])).toEqual([["a", 1], ["b", 0]]);
    } finally {
      await engine.close();
      w.cleanup();
    }
  });

  test.each([
    ["an undeclared resource", `"\${random_string.nope.result}"`, /undeclared resource|nope/],
    ["an undeclared variable", `"prefix-\${var.missing}"`, /undeclared input variable|missing/],
    ["a broken template", `"\${random_string.a.result"`, /template|Unterminated|expected/i],
    ["an attribute that does not exist", `"\${random_string.a.no_such_attr}"`, /Unsupported attribute|no_such_attr/],
  ])("JSON syntax: a template with %s is an error diagnostic, and no provider call carries a literal \"${\"", async (_name, expr, pattern) => {
    const json = {
      terraform: { required_providers: { random: { source: "hashicorp/random" } } },
      resource: {
        random_string: {
          a: { length: 8, special: false },
          b: { length: 8, special: false, keepers: { k: "__EXPR__" } },
        },
      },
    };
    const text = JSON.stringify(json, null, 2).replace('"__EXPR__"', expr);
    const w = workDir({ "main.tf.json": text });
    const engine = engineFor(source, w.dir);
    try {
      const n = calls.length;
      const planned = await engine.plan(w.dir, newStateFile(), { env: {} });
      expectClean(calls.slice(n));
      expect(planned.hasErrors).toBe(true);
      const diag = planned.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.summary}: ${d.detail}`).join("\n");
      expect(diag).toMatch(pattern);
    } finally {
      await engine.close();
      w.cleanup();
    }
  });

  test("JSON syntax: a template that resolves sends the resolved text, never the template", async () => {
    const text = JSON.stringify({
      terraform: { required_providers: { random: { source: "hashicorp/random" } } },
      resource: { random_string: { a: { length: 8, special: false }, b: { length: 8, special: false, keepers: { k: "from-${random_string.a.result}" } } } },
    });
    const w = workDir({ "main.tf.json": text });
    const engine = engineFor(source, w.dir);
    const store = createLocalBackend({ dir: join(root, "json-ok") }).store("default");
    try {
      const state = newStateFile();
      const planned = await engine.plan(w.dir, state, { env: {} });
      expect(planned.hasErrors).toBe(false);
      const n = calls.length;
      const pool = new ProviderPool(source);
      let result;
      try {
        result = await applyPlan(planned.plan, { providers: pool, state, scope: planned.applyScope, persist: async (s) => void (await saveState(store, s)) });
      } finally {
        await pool.close();
      }
      expect(result.success).toBe(true);
      expectClean(calls.slice(n));
      const st = (await loadState(store))!;
      const b = st.resources.find((r) => r.name === "b")!;
      const a = st.resources.find((r) => r.name === "a")!;
      const aResult = (JSON.parse(a.instances[0]!.attributesJson!) as { result: string }).result;
      expect((JSON.parse(b.instances[0]!.attributesJson!) as { keepers: Record<string, string> }).keepers).toEqual({ k: `from-${aResult}` });
    } finally {
      await engine.close();
      w.cleanup();
    }
  });
});
