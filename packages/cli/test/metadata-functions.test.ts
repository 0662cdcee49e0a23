// magma metadata functions -json beside terraform 1.11.4's: the same function names (each also
// under core::), parameters, nullability and return types, byte for byte once the descriptions
// (magma's own words, not terraform's documentation text) are taken out; and the same refusals
// (no -json, the bare group) with the same output and exit code. It reads no configuration, so
// there is no JSON-syntax variant. Skipped without terraform.
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 120_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

interface Parameter {
  name: string;
  description?: string;
  is_nullable?: boolean;
  type: unknown;
}
interface Signature {
  description?: string;
  return_type: unknown;
  parameters?: Parameter[];
  variadic_parameter?: Parameter;
}

/** The document with every description left out (terraform's are its documentation's words). */
function withoutDescriptions(text: string): unknown {
  const doc = JSON.parse(text) as { format_version: string; function_signatures: Record<string, Signature> };
  const param = ({ description: _d, ...p }: Parameter): Parameter => p;
  const sigs = Object.entries(doc.function_signatures).map(([name, { description: _d, ...s }]) => [
    name,
    { ...s, ...(s.parameters !== undefined ? { parameters: s.parameters.map(param) } : {}), ...(s.variadic_parameter !== undefined ? { variadic_parameter: param(s.variadic_parameter) } : {}) },
  ]);
  return { ...doc, function_signatures: Object.fromEntries(sigs) };
}

async function both(args: readonly string[]): Promise<[theirs: Awaited<ReturnType<typeof runTool>>, ours: Awaited<ReturnType<typeof runTool>>]> {
  const dir = workdir({ "cli.tfrc": "" });
  const env = { TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc") };
  return Promise.all([runTool("terraform", args, dir, env), runTool("magma", args, dir, env)]);
}

describe("metadata functions beside terraform", () => {
  it_("-json: the same signatures of all built-in functions, keys in the same order", async () => {
    const [theirs, ours] = await both(["metadata", "functions", "-json"]);
    expect(ours.code).toBe(0);
    expect(ours.stderr).toBe("");
    expect(ours.code).toBe(theirs.code);
    expect(ours.stdout.endsWith("}\n")).toBe(true);
    // The same names, in the same (byte) order, and the same document once descriptions are out.
    const names = (t: string): string[] => Object.keys((JSON.parse(t) as { function_signatures: object }).function_signatures);
    expect(names(ours.stdout)).toEqual(names(theirs.stdout));
    expect(names(ours.stdout)).toContain("core::templatestring");
    expect(withoutDescriptions(ours.stdout)).toEqual(withoutDescriptions(theirs.stdout));
    // Every magma function says what it does.
    const doc = JSON.parse(ours.stdout) as { function_signatures: Record<string, Signature> };
    expect(Object.entries(doc.function_signatures).filter(([, s]) => (s.description ?? "") === "").map(([n]) => n)).toEqual([]);
  }, TIMEOUT);

  it_("refusals: no -json, and the bare group, with terraform's output and exit code", async () => {
    for (const args of [["metadata", "functions", "-no-color"], ["metadata", "-no-color"], ["metadata", "nonsense", "-no-color"]]) {
      const [theirs, ours] = await both(args);
      expect({ args, code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ args, code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
    }
    // Without -no-color terraform colours a pipe too; magma colours only a terminal (src/decide-colour.ts), so the text is compared without colour codes.
    const [theirs, ours] = await both(["metadata", "functions"]);
    const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");
    expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: plain(theirs.stderr) });
  }, TIMEOUT);
});
