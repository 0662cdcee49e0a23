import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { stringVal } from "@magma/cty";
import { evaluate, parseConfig } from "@magma/hcl";
import { backendConfigSchema, backendValueFromCty, type BackendConfigValue } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { BackendSettings } from "./backend-settings.js";

/**
 * Applies `init -backend-config` arguments to a backend block's settings, in order, as
 * terraform merges them: `key=value` sets one setting (the value read as the setting's type:
 * `true`, `3`), anything else is a file of attributes (HCL or JSON, evaluated without
 * variables or functions, as a `.tfvars` file).
 *
 * @throws CliError `bad_input` for a setting the backend does not have, a value of the wrong
 *   type, or a file that cannot be read or parsed.
 */
export function applyBackendOverrides(
  settings: BackendSettings,
  args: readonly string[],
  dir: string,
): BackendSettings {
  const schema = backendConfigSchema(settings.type) ?? {};
  const values: Record<string, BackendConfigValue> = { ...settings.values };
  const set = (name: string, v: Parameters<typeof backendValueFromCty>[0], where: string): void => {
    const kind = schema[name];
    if (kind === undefined)
      throw new CliError(
        CliErrorCode.BadInput,
        `Invalid backend configuration argument: The backend configuration argument ${JSON.stringify(name)} given on the command line is not expected for the selected backend type.`,
        { detail: where },
      );
    let x;
    try {
      x = backendValueFromCty(v, kind);
    } catch (e) {
      throw new CliError(
        CliErrorCode.BadInput,
        `Invalid backend configuration argument: ${name}: ${(e as Error).message} (${where})`,
      );
    }
    if (x === undefined) delete values[name];
    else values[name] = x;
  };
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(arg.slice(0, eq))) {
      set(arg.slice(0, eq), stringVal(arg.slice(eq + 1)), `-backend-config=${JSON.stringify(arg)}`);
      continue;
    }
    const file = resolve(dir, arg);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new CliError(
        CliErrorCode.BadInput,
        `Failed to read file: The file ${JSON.stringify(arg)} could not be read: ${(e as Error).message}`,
      );
    }
    const { body, diags } = parseConfig(text, arg);
    const attrs = body.justAttributes();
    const bad = [...diags, ...attrs.diags].find((d) => d.severity === "error");
    if (bad !== undefined)
      throw new CliError(CliErrorCode.BadInput, `${bad.summary}: ${bad.detail} (${arg})`);
    for (const [name, attr] of attrs.attributes) {
      const r = evaluate(attr.expr);
      const e = r.diags.find((d) => d.severity === "error");
      if (e !== undefined)
        throw new CliError(
          CliErrorCode.BadInput,
          `${e.summary}: ${e.detail} (${arg}:${attr.range.start.line})`,
        );
      set(name, r.value, `${arg}:${attr.range.start.line}`);
    }
  }
  return { type: settings.type, values };
}
