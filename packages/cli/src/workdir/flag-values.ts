// Terraform's flag values that commands parse before they do anything (durations, booleans):
// a module of their own, so that registering a command's options loads neither the state
// package nor the lock code (see run-cli.ts).
import { CliError, CliErrorCode } from "../cli-error.js";

/**
 * Parses a Go duration as Terraform's `-lock-timeout` takes it (`0s`, `10s`, `1m30s`, `500ms`).
 *
 * @throws CliError `usage` for anything else.
 */
export function parseDuration(flag: string, text: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (text === "0") return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos === 0 || pos !== text.length) throw new CliError(CliErrorCode.Usage, `${flag}: invalid duration ${JSON.stringify(text)} (e.g. 10s, 1m30s)`);
  return total;
}

/** Parses Terraform's boolean flag values (`-lock=false`, `-force`). */
export function parseBoolFlag(flag: string, value: string | boolean | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (typeof value === "boolean") return value;
  if (/^(1|t|true|T|TRUE|True)$/.test(value)) return true;
  if (/^(0|f|false|F|FALSE|False)$/.test(value)) return false;
  throw new CliError(CliErrorCode.Usage, `${flag}: invalid boolean value ${JSON.stringify(value)}`);
}
