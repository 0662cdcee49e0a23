/**
 * Provider-defined functions of the real AWS provider (5.100.0, protocol 5.x) called
 * through magma's `callFunction`, compared with terraform 1.11.4's results for the same
 * calls: the outputs of a configuration without resources (`terraform apply`, then the
 * outputs in `terraform.tfstate`), and `terraform console` for the failing calls.
 *
 * The provider is never configured: Terraform calls functions on an unconfigured provider.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { nullVal, stringType, stringVal, toJson, typeToJson, unknownVal, type Value } from "@magma/cty";
import { isFunctionCaller, isProviderError } from "@magma/provider-api";
import { dialProvider, type LiveProvider } from "../src/dial-provider.js";
import type { ProviderConn } from "../src/provider-conn.js";
import { AWS_BINARY, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";

const d = hasTerraformAndAws() ? describe : describe.skip;

const REQUIRED = `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}
`;

/** One call: the function, its arguments as HCL string literals (null for `null`), and as cty values. */
interface Call {
  readonly output: string;
  readonly fn: string;
  readonly args: readonly (string | null)[];
}

const CALLS: readonly Call[] = [
  { output: "parse_role", fn: "arn_parse", args: ["arn:aws:iam::123456789012:role/path/to/app"] },
  { output: "parse_regional", fn: "arn_parse", args: ["arn:aws:ec2:eu-west-1:123456789012:instance/i-0123456789abcdef0"] },
  { output: "parse_colons", fn: "arn_parse", args: ["arn:aws-cn:logs:cn-north-1:210987654321:log-group:/aws/x:*"] },
  { output: "parse_s3", fn: "arn_parse", args: ["arn:aws:s3:::my-bucket/key"] },
  { output: "build_iam", fn: "arn_build", args: ["aws", "iam", "", "123456789012", "role/x"] },
  { output: "build_regional", fn: "arn_build", args: ["aws-us-gov", "ec2", "us-gov-west-1", "123456789012", "vpc/vpc-1"] },
  { output: "build_empty", fn: "arn_build", args: ["", "", "", "", ""] },
  { output: "trim_path", fn: "trim_iam_role_path", args: ["arn:aws:iam::123456789012:role/path/to/app"] },
  { output: "trim_nopath", fn: "trim_iam_role_path", args: ["arn:aws:iam::123456789012:role/app"] },
];

/** Failing calls: terraform's console error, and what magma must reject with. */
const FAILURES: readonly (Call & { readonly argument: number | undefined })[] = [
  { output: "", fn: "arn_parse", args: ["not-an-arn"], argument: undefined },
  { output: "", fn: "trim_iam_role_path", args: ["arn:aws:iam::123456789012:user/x"], argument: undefined },
  { output: "", fn: "arn_build", args: ["aws", "iam", "", "123456789012", null], argument: 4 },
  { output: "", fn: "trim_iam_role_path", args: [null], argument: 0 },
];

/** A diagnostic of `terraform plan -json`. */
interface TerraformDiag {
  readonly summary: string;
  readonly detail: string;
  readonly snippet: { readonly context: string; readonly code: string; readonly highlight_start_offset: number; readonly highlight_end_offset: number };
}

const hcl = (c: Call): string => `provider::aws::${c.fn}(${c.args.map((a) => (a === null ? "null" : JSON.stringify(a))).join(", ")})`;
const values = (c: Call): Value[] => c.args.map((a) => (a === null ? nullVal(stringType) : stringVal(a)));
const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

d("the AWS provider's functions: magma's callFunction vs terraform 1.11.4", () => {
  let ws: TerraformWorkspace;
  let live: LiveProvider;
  let conn: ProviderConn;

  beforeAll(async () => {
    ws = TerraformWorkspace.create("magma-tf-fn-");
    ws.write("main.tf", REQUIRED);
    const [, l] = await Promise.all([ws.init(), dialProvider({ binary: AWS_BINARY })]);
    live = l;
    conn = live.provider as ProviderConn;
  }, 240_000);

  afterAll(async () => {
    await live?.close();
    ws?.dispose();
  });

  test("the schema declares the 3 functions with their signatures", async () => {
    const fns = live.schema.functions!;
    expect([...fns.keys()].sort()).toEqual(["arn_build", "arn_parse", "trim_iam_role_path"]);
    const parse = fns.get("arn_parse")!;
    expect(parse.parameters.map((p) => [p.name, typeToJson(p.type)])).toEqual([["arn", '"string"']]);
    expect(JSON.parse(typeToJson(parse.returnType))).toEqual([
      "object",
      { partition: "string", service: "string", region: "string", account_id: "string", resource: "string" },
    ]);
    expect(fns.get("arn_build")!.parameters.map((p) => p.name)).toEqual(["partition", "service", "region", "account_id", "resource"]);
    expect(fns.get("arn_build")!.variadicParameter).toBeUndefined();
    expect(fns.get("arn_parse")!.summary).toBe("arn_parse Function");
  });

  test("results equal terraform's outputs for the same calls (the provider is never configured)", async () => {
    expect(isFunctionCaller(live.provider)).toBe(true);
    expect(conn.configured).toBe(false);
    ws.write("main.tf", `${REQUIRED}\n${CALLS.map((c) => `output "${c.output}" {\n  value = ${hcl(c)}\n}\n`).join("\n")}`);
    ws.remove("terraform.tfstate");
    await ws.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    const state = JSON.parse(readFileSync(join(ws.dir, "terraform.tfstate"), "utf8")) as { outputs: Record<string, { value: unknown; type: unknown }> };
    for (const c of CALLS) {
      const sig = live.schema.functions!.get(c.fn)!;
      const got = await conn.callFunction(c.fn, values(c));
      const want = state.outputs[c.output];
      expect({ call: hcl(c), value: JSON.parse(toJson(got, sig.returnType)) as unknown, type: JSON.parse(typeToJson(got.type)) as unknown }).toEqual({
        call: hcl(c),
        value: want?.value,
        type: want?.type,
      });
    }
    expect(conn.configured).toBe(false);
  }, 240_000);

  test("failures: the same text as terraform's, and the argument index terraform highlights", async () => {
    // One plan reports every failing output; its JSON diagnostics name the output and
    // highlight the offending argument's expression when the error is an argument's.
    ws.write("main.tf", `${REQUIRED}\n${FAILURES.map((f, i) => `output "f${i}" {\n  value = ${hcl(f)}\n}\n`).join("\n")}`);
    ws.remove("terraform.tfstate");
    const plan = await ws.run(["plan", "-json", "-input=false", "-no-color"], { allowFailure: true });
    expect(plan.code).toBe(1);
    const diags = new Map<string, TerraformDiag>();
    for (const line of plan.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line) as { type?: string; diagnostic?: TerraformDiag };
      if (m.type === "diagnostic" && m.diagnostic?.snippet !== undefined) diags.set(m.diagnostic.snippet.context, m.diagnostic);
    }
    for (const [i, f] of FAILURES.entries()) {
      const tf = diags.get(`output "f${i}"`);
      if (tf === undefined) throw new Error(`terraform reported nothing for ${hcl(f)}:\n${plan.stdout}`);
      let err: unknown;
      try {
        await conn.callFunction(f.fn, values(f));
      } catch (e) {
        err = e;
      }
      if (!isProviderError(err) || err.code !== "function_error") throw new Error(`${hcl(f)}: expected a function_error, got ${String(err)}`);
      const { snippet } = tf;
      const highlighted = snippet.code.slice(snippet.highlight_start_offset, snippet.highlight_end_offset);
      if (err.detail.argument === undefined) {
        expect({ call: hcl(f), summary: tf.summary, detail: oneLine(tf.detail) }).toEqual({
          call: hcl(f),
          summary: "Error in function call",
          detail: `Call to function "provider::aws::${f.fn}" failed: ${err.detail.text}.`,
        });
        expect(highlighted).toBe(`provider::aws::${f.fn}(`); // the call, not an argument
      } else {
        const param = f.fn === "arn_build" ? "resource" : "arn";
        expect({ call: hcl(f), summary: tf.summary, detail: oneLine(tf.detail) }).toEqual({
          call: hcl(f),
          summary: "Invalid function argument",
          detail: `Invalid value for "${param}" parameter: ${err.detail.text}.`,
        });
        // Terraform highlights the argument at magma's index.
        expect(highlighted).toBe(f.args[err.detail.argument] === null ? "null" : JSON.stringify(f.args[err.detail.argument]));
        expect(err.message).toContain(`"${param}" parameter (argument ${err.detail.argument})`);
      }
      expect({ call: hcl(f), functionName: err.detail.functionName, argument: err.detail.argument }).toEqual({ call: hcl(f), functionName: f.fn, argument: f.argument });
    }
  }, 240_000);

  test("an unknown argument gives an unknown of the return type without a call; unknown names are unknown_type", async () => {
    const r = await conn.callFunction("arn_parse", [unknownVal(stringType)]);
    expect(r.isKnown()).toBe(false);
    expect(typeToJson(r.type)).toBe(typeToJson(live.schema.functions!.get("arn_parse")!.returnType));
    await expect(conn.callFunction("arn_format", [])).rejects.toMatchObject({ code: "unknown_type", detail: { kind: "function", typeName: "arn_format" } });
    await expect(conn.callFunction("arn_parse", [])).rejects.toMatchObject({ code: "function_error", detail: { functionName: "arn_parse" } });
  });

  test("GetFunctions agrees with the schema; after it, this provider's mux answers calls with duplicate-function errors", async () => {
    // A process of its own: terraform-plugin-mux (which hashicorp/aws 5.x is built with)
    // registers the functions again on GetFunctions, as it does types on GetMetadata.
    const fresh = await dialProvider({ binary: AWS_BINARY });
    try {
      const conn = fresh.provider as ProviderConn;
      const fns = fresh.schema.functions!;
      const got = await conn.getFunctions();
      expect(got.warnings).toEqual([]);
      expect([...got.functions.keys()].sort()).toEqual([...fns.keys()].sort());
      for (const [name, sig] of got.functions) {
        const want = fns.get(name)!;
        expect(sig.parameters.map((p) => [p.name, typeToJson(p.type), p.allowNullValue, p.allowUnknownValues])).toEqual(
          want.parameters.map((p) => [p.name, typeToJson(p.type), p.allowNullValue, p.allowUnknownValues]),
        );
        expect(typeToJson(sig.returnType)).toBe(typeToJson(want.returnType));
      }
      const err = await conn.callFunction("arn_parse", [stringVal("arn:aws:iam::123456789012:role/x")]).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "function_error", detail: { text: expect.stringContaining("Duplicate function: arn_parse") } });
    } finally {
      await fresh.close();
    }
  }, 240_000);
});
