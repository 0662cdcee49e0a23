/**
 * Test support for comparing `magma test` with `terraform test`: their output with what
 * differs from run to run blanked, and the expectation that both runs match.
 */
import type { ToolRun } from "./side-by-side.js";

/** Test-command output with what differs from run to run blanked: `-json` timestamps, and the progress updates printed every 2 s while an operation runs. */
export function comparableTestOutput(s: string): string {
  return s
    .split("\n")
    .filter((l) => !/"elapsed":[1-9]/.test(l))
    .join("\n")
    .replace(/"@timestamp":"[^"]*"/g, '"@timestamp":"T"');
}

/** Expects magma's run to match terraform's: exit code, stdout and stderr, each through `comparable` (default {@link comparableTestOutput}). */
export function expectSameTestRun(ours: ToolRun, theirs: ToolRun, command: string, comparable: (s: string) => string = comparableTestOutput): void {
  expect({ command, code: ours.code, stdout: comparable(ours.stdout), stderr: comparable(ours.stderr) }).toEqual({ command, code: theirs.code, stdout: comparable(theirs.stdout), stderr: comparable(theirs.stderr) });
}
