/**
 * Test support for the configuration-diagnostics oracles (config-warnings, provider-requirements):
 * the commands each case runs in both tools, a case's files in either syntax, and what of a
 * run is compared.
 */
import { tfToJson } from "@magma/test-support";
import type { ToolRun } from "./side-by-side.js";

/** validate and plan, human and -json. */
export const VALIDATE_PLAN_COMMANDS = [
  ["validate", "-no-color"],
  ["validate", "-json"],
  ["plan", "-no-color", "-input=false"],
  ["plan", "-json", "-input=false"],
] as const;

/** Both syntaxes, native first. */
export const SYNTAXES = ["native", "JSON"] as const;

/** A case's files in `syntax` (every file converted by tfToJson, `.json` added to its name). */
export function filesIn(syntax: (typeof SYNTAXES)[number], files: Readonly<Record<string, string>>): Record<string, string> {
  if (syntax === "native") return { ...files };
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [`${path}.json`, tfToJson(text)]));
}

/** What is compared: `plan -json` lines without their timestamps; everything else as printed. */
export function comparableRun(r: ToolRun, command: readonly string[]): unknown {
  if (!(command[0] === "plan" && command.includes("-json"))) return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  const lines = r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/"@timestamp":"[^"]*"/, ""));
  return { code: r.code, lines, stderr: r.stderr };
}
