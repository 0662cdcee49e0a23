import { isPathError } from "@magma/cty";
import { formatDiag, isProviderError, type AnyProviderError, type ProviderSchema } from "@magma/provider-api";
import { isEngineError } from "@magma/engine";
import { isStateError, type StateError } from "@magma/state";
import { isCliError } from "./cli-error.js";
import { ExitCode } from "./exit-code.js";

const NOT_FOUND_HINT =
  "install it in one of the searched directories in Terraform's mirror layout (<dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/terraform-provider-<type>_v<version>), or pass --plugin-dir DIR, set MAGMA_PLUGIN_DIRS, or give the path of the binary";

/** An error turned into what the CLI prints on stderr and the exit code. */
export interface ErrorReport {
  /** `error: …` lines (one per error diagnostic; otherwise one). */
  readonly lines: readonly string[];
  /** What to do about it, when there is something to say. */
  readonly hint: string | undefined;
  /** The exit code. */
  readonly exitCode: ExitCode;
}

/**
 * Describes any error thrown by a command in one line (plus one line per extra
 * diagnostic) with a hint: for a provider not found, the directories searched and how to
 * add one; for a crash, the panic excerpt; for an unknown type, the closest names.
 */
export function reportError(e: unknown, schema?: ProviderSchema, command?: string): ErrorReport {
  if (isCliError(e) && e.silent) return { lines: [], hint: undefined, exitCode: e.exitCode };
  if (isCliError(e) && (e.detail !== undefined || e.plain)) {
    const body = [e.message, ...(e.detail === undefined ? [] : ["", ...e.detail.split("\n")])];
    return { lines: e.plain ? body : ["", `Error: ${body[0]!}`, ...body.slice(1), ""], hint: e.hint, exitCode: e.exitCode };
  }
  if (isCliError(e)) return { lines: [`error: ${oneLine(e.message)}`], hint: e.hint, exitCode: e.exitCode };
  if (isProviderError(e)) return providerReport(e as AnyProviderError, schema);
  if (isEngineError(e)) {
    // The engine's checks of provider answers: the message, then each diagnostic behind it.
    const lines = [`error: ${oneLine(e.message)}`, ...e.diagnostics.map((d) => `error: ${oneLine(formatDiag(d))}`)];
    return { lines, hint: undefined, exitCode: ExitCode.Error };
  }
  if (isStateError(e)) return stateReport(e, command);
  if (isPathError(e)) return { lines: [`error: ${oneLine(e.message)}`], hint: undefined, exitCode: ExitCode.Error };
  if (e instanceof TypeError && /provider source address|version constraint/.test(e.message)) {
    return {
      lines: [`error: ${oneLine(e.message)}`],
      hint: "a provider is a source address (hashicorp/aws), a path to a provider binary (./terraform-provider-x), or a native provider's name (random)",
      exitCode: ExitCode.Error,
    };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return { lines: [`error: ${oneLine(msg)}`], hint: undefined, exitCode: ExitCode.Error };
}

function providerReport(e: AnyProviderError, schema: ProviderSchema | undefined): ErrorReport {
  const base = (hint?: string): ErrorReport => ({ lines: [`error: ${oneLine(e.rawMessage)} [${e.code}]`], hint, exitCode: ExitCode.Error });
  switch (e.code) {
    case "provider_not_found": {
      const d = e.detail;
      if (d.binary !== undefined && d.searched === undefined) return base("check the path of the provider binary and that it is executable");
      return base(NOT_FOUND_HINT);
    }
    case "transport": {
      if (/in any plugin directory/.test(e.rawMessage)) {
        return base(NOT_FOUND_HINT);
      }
      if (/ENOENT|EACCES|not found|no such file/i.test(e.rawMessage)) return base("check the path of the provider binary and that it is executable");
      return base();
    }
    case "plugin_exited": {
      const d = e.detail;
      const excerpt = d.panicExcerpt ?? lastLines(d.stderrTail, 3);
      return base(excerpt === "" ? "the provider exited; run with --log-level debug to see its output" : `the provider crashed: ${oneLine(excerpt).slice(0, 400)}`);
    }
    case "handshake_failed":
      return base("is this a Terraform provider binary? It must print the go-plugin handshake line first");
    case "protocol_mismatch":
      return base("magma speaks tfplugin protocols 5 and 6");
    case "diagnostics": {
      const errs = e.detail.diagnostics.filter((d) => d.severity === "error");
      const lines = (errs.length > 0 ? errs : e.detail.diagnostics).map((d) => oneLine(formatDiag(d)));
      return { lines, hint: "the provider rejected the request; check --config and --provider-config", exitCode: ExitCode.Error };
    }
    case "partially_applied": {
      const lines = e.detail.diagnostics.filter((d) => d.severity === "error").map((d) => oneLine(formatDiag(d)));
      return { lines: [`error: apply failed part-way [partially_applied]`, ...lines], hint: "the object exists in the state printed on stdout: keep it", exitCode: ExitCode.Error };
    }
    case "unknown_type": {
      const names = schema === undefined ? [] : [...(e.detail.kind === "resource" ? schema.resources.keys() : schema.dataSources.keys())];
      const near = closest(e.detail.typeName, names);
      const other = schema !== undefined && (e.detail.kind === "resource" ? schema.dataSources : schema.resources).has(e.detail.typeName);
      const hint = other
        ? `${e.detail.typeName} is a ${e.detail.kind === "resource" ? "data source: use `magma data`" : "resource type: use plan/apply/read/import"}`
        : near.length > 0
          ? `did you mean ${near.join(" or ")}? (\`magma schema <provider>\` lists the types)`
          : "`magma schema <provider>` lists the types";
      return base(hint);
    }
    default:
      // not_configured, no_new_state, schema, invalid_response, canceled, deadline_exceeded: the message says it all.
      return base();
  }
}

/**
 * A lock's creation time as terraform prints it (Go's `time.Time.String()` of the UTC time the
 * lock info holds: `2026-12-07 12:35:33.343190125 +0000 UTC`, trailing zeros of the fraction
 * dropped); a time in another form is printed as it is.
 */
export function goTimeText(created: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(created);
  if (m === null) return created;
  const frac = (m[3] ?? "").replace(/0+$/, "");
  return `${m[1]!} ${m[2]!}${frac === "" ? "" : `.${frac}`} +0000 UTC`;
}

/** The commands terraform runs as operations, whose views print a diagnostic without the empty line its older commands' Ui adds. */
const OPERATIONS: ReadonlySet<string> = new Set(["plan", "apply", "destroy", "refresh"]);

/** A state error as Terraform words it: the lock holder for a held lock, the message otherwise. */
function stateReport(e: StateError, command: string | undefined): ErrorReport {
  if (e.code === "locked") {
    const i = e.detail;
    const info =
      i === undefined
        ? []
        : ["Lock Info:", `  ID:        ${i.id}`, `  Path:      ${i.path}`, `  Operation: ${i.operation}`, `  Who:       ${i.who}`, `  Version:   ${i.version}`, `  Created:   ${goTimeText(i.created)}`, `  Info:      ${i.info}`, ""];
    const message = e.message.replace(/^\[locked\] /, "");
    return {
      lines: [
        "",
        "Error: Error acquiring the state lock",
        "",
        // The local backend's lock is a file lock: terraform's message is the operating system's (EAGAIN).
        `Error message: ${/^(the state .* is locked by |workspace .* is locked by this process)/.test(message) ? "resource temporarily unavailable" : message}`,
        ...info,
        "",
        "Terraform acquires a state lock to protect the state from being written",
        "by multiple users at the same time. Please resolve the issue above and try",
        'again. For most commands, you can disable locking with the "-lock=false"',
        "flag, but this is not recommended.",
        ...(command !== undefined && OPERATIONS.has(command) ? [] : [""]),
      ],
      hint: undefined,
      exitCode: ExitCode.Error,
    };
  }
  return { lines: ["", `Error: ${e.message.replace(/^\[[a-z_]+\] /, "")}`, ""], hint: undefined, exitCode: ExitCode.Error };
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ").trim();
}

function lastLines(s: string, n: number): string {
  return s.trimEnd().split("\n").slice(-n).join("\n");
}

/** Up to three names close to `name` (edit distance at most a third of its length, or sharing a long prefix). */
function closest(name: string, names: readonly string[]): string[] {
  const scored = names
    .map((n) => ({ n, d: distance(name, n) }))
    .filter(({ n, d }) => d <= Math.max(2, Math.floor(name.length / 3)) || (name.length >= 5 && n.startsWith(name)))
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : 1));
  return scored.slice(0, 3).map((s) => s.n);
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
