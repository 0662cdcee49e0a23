import type { PlanDiagnostic } from "@magma/engine";
import type { TestFile, TestRun } from "./test-file.js";

/** A test's status, lowest precedence first (Terraform's `moduletest.Status`). */
export type TestStatus = "pending" | "skip" | "pass" | "fail" | "error";

const RANK: Readonly<Record<TestStatus, number>> = {
  pending: 0,
  skip: 1,
  pass: 2,
  fail: 3,
  error: 4,
};

/** The status that represents both (the higher one, as Terraform's `Status.Merge`). */
export function mergeStatus(a: TestStatus, b: TestStatus): TestStatus {
  return RANK[b] > RANK[a] ? b : a;
}

/** Whether `a` is at most `b` in precedence. */
export function statusAtMost(a: TestStatus, b: TestStatus): boolean {
  return RANK[a] <= RANK[b];
}

/** Where a file or run is in its execution (Terraform's `moduletest.Progress`). */
export type TestProgress = "starting" | "running" | "teardown" | "complete";

/** What a run block did: its status and diagnostics, and what `-verbose` prints. */
export interface RunResult {
  readonly run: TestRun;
  status: TestStatus;
  diagnostics: PlanDiagnostic[];
  /** The rendered plan or state for `-verbose`, when there is one. */
  verbose?: {
    readonly human: string;
    /** The `-json` view's document: the state of an apply run, the plan of a plan run. */
    readonly json?: { readonly kind: "state" | "plan"; readonly text: string };
  };
  /** When it started and how long it took (nanoseconds), once it was executed (Terraform's `RunExecutionMeta`). */
  execution?: { readonly start: Date; readonly durationNs: number };
}

/** A test file's execution. */
export interface FileResult {
  readonly file: TestFile;
  status: TestStatus;
  diagnostics: PlanDiagnostic[];
  readonly runs: RunResult[];
}

/** The whole suite: files in execution (name) order. */
export interface SuiteResult {
  readonly files: FileResult[];
  status: TestStatus;
}
