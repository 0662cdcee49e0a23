/**
 * Provider-defined functions of a native TypeScript provider, served to real terraform
 * 1.11.4 over protocol 6 and over protocol 5: a configuration with no resources calls
 * them as `provider::magma::<fn>(…)` in outputs; the outputs terraform stores equal the
 * values of the same calls made in-process (`callFunction` on the native provider) and
 * through magma's own gRPC client; failures show the function's text, and an argument's
 * failure highlights that argument. `terraform providers schema -json` prints the
 * signatures.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listVal, nullVal, numberVal, objectVal, stringType, stringVal, toJson, tupleVal, typeToJson, boolVal, type Value } from "@magma/cty";
import { dialProvider, providerSchemaToTerraformJson, type LiveProvider } from "@magma/plugin";
import { isFunctionCaller, type FunctionCaller, type Provider } from "@magma/provider-api";
import { expectExit, fixtureLauncher, functionProvider, tempDir, terraform, terraformEnv } from "./support/harness.js";
import { hasTerraform } from "@magma/test-support";

const d = hasTerraform() ? describe : describe.skip;
const fixture = functionProvider;

const REQUIRED = `
terraform {
  required_providers {
    magma = { source = "example.com/magma/fn", version = "1.0.0" }
  }
}
`;

/** Calls as HCL (for terraform) and as cty values (for magma). */
const CALLS: readonly { readonly output: string; readonly fn: string; readonly hcl: string; readonly args: readonly Value[] }[] = [
  { output: "upper", fn: "upper", hcl: `"hello"`, args: [stringVal("hello")] },
  { output: "join0", fn: "join", hcl: `"-"`, args: [stringVal("-")] },
  { output: "join3", fn: "join", hcl: `"-", "a", null, "c"`, args: [stringVal("-"), stringVal("a"), nullVal(stringType), stringVal("c")] },
  {
    output: "echo",
    fn: "echo",
    hcl: `{ a = [1, 2.5], b = "x", c = true }`,
    args: [objectVal({ a: tupleVal([numberVal(1), numberVal(2.5)]), b: stringVal("x"), c: boolVal(true) })],
  },
  { output: "echo_str", fn: "echo", hcl: `"plain"`, args: [stringVal("plain")] },
  { output: "kv", fn: "kv", hcl: `["a=1", "b=two"]`, args: [listVal([stringVal("a=1"), stringVal("b=two")])] },
  { output: "port", fn: "port", hcl: `443`, args: [numberVal(443)] },
];

/** Failing calls: the argument terraform highlights (undefined: the call itself). */
const FAILURES: readonly { readonly fn: string; readonly hcl: string; readonly args: readonly Value[]; readonly text: string; readonly argument?: string; readonly parameter?: string }[] = [
  { fn: "fail", hcl: `"it broke"`, args: [stringVal("it broke")], text: "it broke" },
  { fn: "port", hcl: `70000`, args: [numberVal(70000)], text: "70000 is not a port number (1 to 65535)", argument: "70000", parameter: "n" },
  { fn: "kv", hcl: `["a=1", "oops"]`, args: [listVal([stringVal("a=1"), stringVal("oops")])], text: 'element 1 ("oops") is not of the form key=value', argument: `["a=1", "oops"]`, parameter: "pairs" },
];

interface TerraformDiag {
  readonly summary: string;
  readonly detail: string;
  readonly snippet?: { readonly context: string; readonly code: string; readonly highlight_start_offset: number; readonly highlight_end_offset: number };
}

const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

async function nativeProvider(): Promise<Provider & FunctionCaller> {
  return ((await import(fixture)) as { createProvider(): Provider & FunctionCaller }).createProvider();
}

d.each([6, 5] as const)("provider functions of a native provider served to terraform on protocol %d", (version) => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let env: Record<string, string | undefined>;
  let launcher: string;

  beforeAll(() => {
    tmp = tempDir(`tffn${version}-`);
    launcher = fixtureLauncher(tmp.dir, [version], fixture, "createProvider", "fn").executable;
    work = join(tmp.dir, "work");
    mkdirSync(work);
    env = terraformEnv(tmp.dir);
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);

  test("init, and providers schema -json prints the function signatures", async () => {
    writeFileSync(join(work, "main.tf"), REQUIRED);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    const run = await tf("providers", "schema", "-json");
    expectExit(run, 0, "providers schema", env);
    const printed = JSON.parse(run.stdout) as { provider_schemas: Record<string, { functions?: unknown }> };
    expect(printed.provider_schemas["example.com/magma/fn"]?.functions).toEqual(providerSchemaToTerraformJson(await (await nativeProvider()).getSchema()).functions);
  }, 240_000);

  test("outputs computed by the provider's functions equal magma's in-process and gRPC calls", async () => {
    writeFileSync(join(work, "main.tf"), `${REQUIRED}\n${CALLS.map((c) => `output "${c.output}" {\n  value = provider::magma::${c.fn}(${c.hcl})\n}\n`).join("\n")}`);
    expectExit(await tf("apply", "-auto-approve", "-input=false", "-no-color"), 0, "apply", env);
    const state = JSON.parse(readFileSync(join(work, "terraform.tfstate"), "utf8")) as { outputs: Record<string, { value: unknown; type: unknown }> };

    const native = await nativeProvider();
    const live: LiveProvider = await dialProvider({ binary: launcher, protocolVersions: [version], startTimeoutMs: 60_000 });
    try {
      expect(isFunctionCaller(live.provider)).toBe(true);
      const remote = live.provider as Provider & FunctionCaller;
      for (const c of CALLS) {
        const want = state.outputs[c.output];
        for (const [how, p] of [
          ["in-process", native],
          ["grpc", remote],
        ] as const) {
          const got = await p.callFunction(c.fn, c.args);
          expect({ how, call: c.output, value: JSON.parse(toJson(got, got.type)) as unknown, type: JSON.parse(typeToJson(got.type)) as unknown }).toEqual({
            how,
            call: c.output,
            value: want?.value,
            type: want?.type,
          });
        }
      }
    } finally {
      await live.close();
    }
  }, 240_000);

  test("failures: terraform shows the function's text, and highlights the argument the provider named", async () => {
    writeFileSync(join(work, "main.tf"), `${REQUIRED}\n${FAILURES.map((f, i) => `output "f${i}" {\n  value = provider::magma::${f.fn}(${f.hcl})\n}\n`).join("\n")}`);
    const plan = await tf("plan", "-json", "-input=false", "-no-color");
    expectExit(plan, 1, "plan", env);
    const diags = new Map<string, TerraformDiag>();
    for (const line of plan.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line) as { type?: string; diagnostic?: TerraformDiag };
      if (m.type === "diagnostic" && m.diagnostic?.snippet !== undefined) diags.set(m.diagnostic.snippet.context, m.diagnostic);
    }
    const native = await nativeProvider();
    const live = await dialProvider({ binary: launcher, protocolVersions: [version], startTimeoutMs: 60_000 });
    try {
      for (const [i, f] of FAILURES.entries()) {
        const tfd = diags.get(`output "f${i}"`);
        if (tfd?.snippet === undefined) throw new Error(`terraform reported nothing for ${f.fn}(${f.hcl}):\n${plan.stdout}`);
        const highlighted = tfd.snippet.code.slice(tfd.snippet.highlight_start_offset, tfd.snippet.highlight_end_offset);
        if (f.argument === undefined) {
          expect({ summary: tfd.summary, detail: oneLine(tfd.detail) }).toEqual({ summary: "Error in function call", detail: `Call to function "provider::magma::${f.fn}" failed: ${f.text}.` });
          expect(highlighted).toBe(`provider::magma::${f.fn}(`);
        } else {
          expect({ summary: tfd.summary, detail: oneLine(tfd.detail) }).toEqual({ summary: "Invalid function argument", detail: `Invalid value for "${f.parameter!}" parameter: ${f.text}.` });
          // Terraform points at the argument's start (a tuple's opening bracket, a literal whole).
          expect(tfd.snippet.code.slice(tfd.snippet.highlight_start_offset).startsWith(f.argument)).toBe(true);
          expect(f.argument.startsWith(highlighted)).toBe(true);
        }
        // The same failure in-process and through magma's gRPC client.
        const detail = { code: "function_error", functionName: f.fn, text: f.text, ...(f.argument === undefined ? {} : { argument: 0 }) };
        for (const p of [native, live.provider as Provider & FunctionCaller]) {
          const err = await p.callFunction(f.fn, f.args).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect((err as { detail?: unknown } | undefined)?.detail).toEqual(detail);
        }
      }
    } finally {
      await live.close();
    }
  }, 240_000);
});
