import type { PlanDiagnostic } from "@magma/engine";
import { compareInstanceAddrs } from "../workdir/state-objects.js";
import { formatResourceInstance, type ResourceInstanceAddress, type StateFile } from "@magma/state";
import { paint } from "../colour.js";
import { wordWrap } from "../terminal-columns.js";
import { terraformDiagnosticOrder } from "../workdir/terraform-diagnostic-order.js";
import { formatDiagnostics, SourceCache } from "../workdir/format-diagnostic.js";
import { JsonUi } from "../workdir/json-ui.js";
import type {
  FileResult,
  RunResult,
  SuiteResult,
  TestProgress,
  TestStatus,
} from "./test-status.js";

/** The events of a `terraform test` run that the views render (Terraform's `views.Test`). */
export interface TestView {
  /** Before any test runs: what will run (`-json` only). */
  abstract(suite: SuiteResult): void;
  /** After every file: the totals. */
  conclusion(suite: SuiteResult): void;
  /** A file starting, tearing down or complete (with its own diagnostics). */
  file(file: FileResult, progress: TestProgress): void;
  /** A run starting, still running (`elapsed` ms), tearing down or complete (with its diagnostics). */
  run(run: RunResult, file: FileResult, progress: TestProgress, elapsed: number): void;
  /** After the destroy of a state: its errors, and what it left behind. */
  destroySummary(
    diags: readonly PlanDiagnostic[],
    run: RunResult | undefined,
    file: FileResult,
    state: StateFile | null,
  ): void;
  /** Diagnostics outside any file (loading, flags). */
  diagnostics(diags: readonly PlanDiagnostic[]): void;
  /** The first interrupt. */
  interrupted(): void;
}

/** Where the views write, and how. */
export interface TestViewOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The configuration directory (diagnostics' file names are relative to it). */
  readonly dir: string;
  readonly color: boolean;
  /** The width diagnostics are wrapped for. */
  readonly width: number;
}

/** Terraform's notice on the first interrupt. */
const INTERRUPTED =
  "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n";

/** The managed resource instance objects left in a state, as Terraform lists them (`addr`, `addr (deposed)`), sorted. */
export function leftResources(state: StateFile | null): { instance: string; deposed?: string }[] {
  if (state === null) return [];
  const out: { addr: ResourceInstanceAddress; instance: string; deposed?: string }[] = [];
  for (const r of state.resources) {
    if (r.mode !== "managed") continue;
    for (const obj of r.instances) {
      const addr: ResourceInstanceAddress = {
        module: r.module,
        mode: r.mode,
        type: r.type,
        name: r.name,
        key: obj.indexKey,
      };
      out.push({
        addr,
        instance: formatResourceInstance(addr),
        ...(obj.deposed !== undefined ? { deposed: obj.deposed } : {}),
      });
    }
  }
  out.sort(
    (a, b) =>
      compareInstanceAddrs(a.addr, b.addr) ||
      ((a.deposed ?? "") < (b.deposed ?? "") ? -1 : (a.deposed ?? "") > (b.deposed ?? "") ? 1 : 0),
  );
  return out.map(({ instance, deposed }) => ({
    instance,
    ...(deposed !== undefined ? { deposed } : {}),
  }));
}

function statusWord(s: TestStatus): string {
  return s === "error" ? "fail" : s;
}

function coloredStatus(s: TestStatus, color: boolean): string {
  switch (s) {
    case "error":
    case "fail":
      return paint(color, "[red]fail[reset]");
    case "pass":
      return paint(color, "[green]pass[reset]");
    case "skip":
      return paint(color, "[light_gray]skip[reset]");
    default:
      return paint(color, "[light_gray]pending[reset]");
  }
}

/** Counts of the runs' statuses. */
function counts(suite: SuiteResult): Record<TestStatus, number> {
  const c: Record<TestStatus, number> = { pending: 0, skip: 0, pass: 0, fail: 0, error: 0 };
  for (const f of suite.files) for (const r of f.runs) c[r.status]++;
  return c;
}

/** The conclusion's sentence (without colour): `Success! 2 passed, 0 failed.` */
function conclusionText(
  suite: SuiteResult,
  c: Record<TestStatus, number>,
  paintWord: (ok: boolean) => string,
): string {
  if (suite.status === "pending" || suite.status === "skip")
    return `Executed 0 tests${c.skip > 0 ? `, ${c.skip} skipped.` : "."}`;
  return `${paintWord(suite.status === "pass")} ${c.pass} passed, ${c.fail + c.error} failed${c.skip > 0 ? `, ${c.skip} skipped.` : "."}`;
}

/** Terraform's human view of `terraform test`. */
export class HumanTestView implements TestView {
  readonly #out: TestViewOutput;

  constructor(out: TestViewOutput) {
    this.#out = out;
  }

  abstract(): void {
    // The human view prints no abstract.
  }

  conclusion(suite: SuiteResult): void {
    const c = counts(suite);
    this.#out.stdout(
      `\n${conclusionText(suite, c, (ok) => paint(this.#out.color, ok ? "[green]Success![reset]" : "[red]Failure![reset]"))}\n`,
    );
  }

  file(file: FileResult, progress: TestProgress): void {
    const color = this.#out.color;
    if (progress === "starting" || progress === "running")
      this.#out.stdout(`${file.file.name}... ${paint(color, "[light_gray]in progress[reset]\n")}`);
    else if (progress === "teardown")
      this.#out.stdout(`${file.file.name}... ${paint(color, "[light_gray]tearing down[reset]\n")}`);
    else {
      this.#out.stdout(`${file.file.name}... ${coloredStatus(file.status, color)}\n`);
      this.#diagnostics(file.diagnostics);
    }
  }

  run(run: RunResult, _file: FileResult, progress: TestProgress): void {
    if (progress !== "complete") return;
    this.#out.stdout(
      `  run ${JSON.stringify(run.run.name)}... ${coloredStatus(run.status, this.#out.color)}\n`,
    );
    if (run.verbose !== undefined) this.#out.stdout(run.verbose.human);
    this.#diagnostics(run.diagnostics);
    // Warnings go to stdout: a blank line separates them from what follows.
    if (run.diagnostics.some((d) => d.severity === "warning")) this.#out.stdout("\n");
  }

  destroySummary(
    diags: readonly PlanDiagnostic[],
    run: RunResult | undefined,
    file: FileResult,
    state: StateFile | null,
  ): void {
    const identifier = run === undefined ? file.file.name : `${file.file.name}/${run.run.name}`;
    if (diags.some((d) => d.severity === "error"))
      this.#out.stderr(
        wordWrap(
          `Terraform encountered an error destroying resources created while executing ${identifier}.\n`,
          this.#out.width,
        ),
      );
    this.#diagnostics(diags);
    const left = leftResources(state);
    if (left.length > 0) {
      this.#out.stderr(
        wordWrap(
          `\nTerraform left the following resources in state after executing ${identifier}, and they need to be cleaned up manually:\n`,
          this.#out.width,
        ),
      );
      for (const r of left)
        this.#out.stderr(
          r.deposed === undefined ? `  - ${r.instance}\n` : `  - ${r.instance} (${r.deposed})\n`,
        );
    }
  }

  diagnostics(diags: readonly PlanDiagnostic[]): void {
    this.#diagnostics(diags);
  }

  interrupted(): void {
    this.#out.stderr(`${wordWrap(INTERRUPTED, this.#out.width)}\n`);
  }

  /** Terraform's `View.Diagnostics`: warnings on stdout, errors on stderr, each on its own. */
  #diagnostics(diags: readonly PlanDiagnostic[]): void {
    for (const d of terraformDiagnosticOrder(
      diags.map(({ address, inConfigBody, ...rest }) =>
        inConfigBody === true && address !== undefined ? { ...rest, address } : rest,
      ),
    )) {
      const text = formatDiagnostics([d], this.#out.dir, this.#out.color, {
        width: this.#out.width,
        addresses: true,
      });
      if (d.severity === "error") this.#out.stderr(text);
      else this.#out.stdout(text);
    }
  }
}

/** A field value that is already JSON text (a document in Go's field order). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A JSON UI whose messages carry the test file and run (`@testfile`, `@testrun`), every key sorted as Terraform's hclog writes them. */
class TestJsonUi extends JsonUi {
  readonly #line: (line: string) => void;
  meta: Record<string, string> = {};

  constructor(write: (line: string) => void) {
    super(write);
    this.#line = write;
  }

  override message(level: string, message: string, fields: Record<string, unknown>): void {
    const all: Record<string, unknown> = {
      "@level": level,
      "@message": message,
      "@module": "terraform.ui",
      "@timestamp": new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1000Z"),
      ...this.meta,
      ...fields,
    };
    const doc: Record<string, unknown> = {};
    // Raw JSON documents (written in Go's field order) go in as they are, through a placeholder.
    const raws: string[] = [];
    for (const k of Object.keys(all).sort()) {
      const v = all[k];
      if (v instanceof RawJson) {
        doc[k] = `\u0000raw${raws.length}`;
        raws.push(v.text);
      } else doc[k] = v;
    }
    let text = JSON.stringify(doc);
    raws.forEach((raw, i) => (text = text.replace(JSON.stringify(`\u0000raw${i}`), () => raw)));
    this.#line(`${text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`);
  }

  /** Writes with the given metadata. */
  with(meta: Record<string, string>, f: () => void): void {
    const prev = this.meta;
    this.meta = meta;
    try {
      f();
    } finally {
      this.meta = prev;
    }
  }
}

/** Terraform's `-json` view of `terraform test`. */
export class JsonTestView implements TestView {
  readonly #ui: TestJsonUi;
  readonly #sources: SourceCache;

  constructor(out: TestViewOutput) {
    this.#ui = new TestJsonUi(out.stdout);
    this.#sources = new SourceCache(out.dir);
    this.#ui.version();
  }

  abstract(suite: SuiteResult): void {
    let runs = 0;
    const abstract: Record<string, string[]> = {};
    for (const f of [...suite.files].sort((a, b) => (a.file.name < b.file.name ? -1 : 1))) {
      abstract[f.file.name] = f.runs.map((r) => r.run.name);
      runs += f.runs.length;
    }
    const files = suite.files.length;
    this.#ui.message(
      "info",
      `Found ${files} ${files === 1 ? "file" : "files"} and ${runs} ${runs === 1 ? "run block" : "run blocks"}`,
      { test_abstract: abstract, type: "test_abstract" },
    );
  }

  conclusion(suite: SuiteResult): void {
    const c = counts(suite);
    const summary = {
      status: suite.status,
      passed: c.pass,
      failed: c.fail,
      errored: c.error,
      skipped: c.skip,
    };
    this.#ui.message(
      "info",
      conclusionText(suite, c, (ok) => (ok ? "Success!" : "Failure!")),
      { test_summary: summary, type: "test_summary" },
    );
  }

  file(file: FileResult, progress: TestProgress): void {
    const name = file.file.name;
    this.#ui.with({ "@testfile": name }, () => {
      if (progress === "starting" || progress === "running")
        this.#ui.message("info", `${name}... in progress`, {
          test_file: { path: name, progress: "starting" },
          type: "test_file",
        });
      else if (progress === "teardown")
        this.#ui.message("info", `${name}... tearing down`, {
          test_file: { path: name, progress: "teardown" },
          type: "test_file",
        });
      else
        this.#ui.message("info", `${name}... ${statusWord(file.status)}`, {
          test_file: { path: name, progress: "complete", status: file.status },
          type: "test_file",
        });
    });
    if (progress === "complete") this.#diagnosticsWith({ "@testfile": name }, file.diagnostics);
  }

  run(run: RunResult, file: FileResult, progress: TestProgress, elapsed: number): void {
    const meta = { "@testfile": file.file.name, "@testrun": run.run.name };
    const name = JSON.stringify(run.run.name);
    this.#ui.with(meta, () => {
      if (progress === "starting" || progress === "running")
        this.#ui.message("info", `  ${name}... in progress`, {
          test_run: { path: file.file.name, run: run.run.name, progress, elapsed },
          type: "test_run",
        });
      else if (progress === "teardown")
        this.#ui.message("info", `  ${name}... tearing down`, {
          test_run: { path: file.file.name, run: run.run.name, progress, elapsed },
          type: "test_run",
        });
      else {
        this.#ui.message("info", `  ${name}... ${statusWord(run.status)}`, {
          test_run: { path: file.file.name, run: run.run.name, progress, status: run.status },
          type: "test_run",
        });
        // Terraform's -verbose: the state of an apply run, the plan of a plan run.
        const json = run.verbose?.json;
        if (json !== undefined)
          this.#ui.message("info", `-verbose flag enabled, printing ${json.kind}`, {
            [`test_${json.kind}`]: new RawJson(json.text),
            type: `test_${json.kind}`,
          });
      }
    });
    if (progress === "complete") this.#diagnosticsWith(meta, run.diagnostics);
  }

  destroySummary(
    diags: readonly PlanDiagnostic[],
    run: RunResult | undefined,
    file: FileResult,
    state: StateFile | null,
  ): void {
    const left = leftResources(state);
    const meta: Record<string, string> =
      run === undefined
        ? { "@testfile": file.file.name }
        : { "@testfile": file.file.name, "@testrun": run.run.name };
    if (left.length > 0) {
      const cleanup = {
        failed_resources: left.map((r) => ({
          instance: r.instance,
          ...(r.deposed !== undefined ? { deposed_key: r.deposed } : {}),
        })),
      };
      const what = run === undefined ? file.file.name : `${file.file.name}/${run.run.name}`;
      this.#ui.with(meta, () =>
        this.#ui.message(
          "error",
          `Terraform left some resources in state after executing ${what}, they need to be cleaned up manually.`,
          { test_cleanup: cleanup, type: "test_cleanup" },
        ),
      );
    }
    this.#diagnosticsWith(meta, diags);
  }

  diagnostics(diags: readonly PlanDiagnostic[]): void {
    this.#diagnosticsWith({}, diags);
  }

  interrupted(): void {
    this.#ui.message("info", INTERRUPTED, { type: "log" });
  }

  #diagnosticsWith(meta: Record<string, string>, diags: readonly PlanDiagnostic[]): void {
    this.#ui.with(meta, () => {
      for (const d of diags) {
        const { address, inConfigBody, ...rest } = d;
        this.#ui.diagnostic(rest, inConfigBody === true ? address : undefined, this.#sources);
      }
    });
  }
}
