import type { PlanDiagnostic } from "@magma/engine";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import type { FileResult, RunResult, SuiteResult } from "./test-status.js";

/** Go's `xml.EscapeText` (as the encoder escapes attribute values and text). */
function escape(s: string): string {
  let out = "";
  for (const ch of s) {
    switch (ch) {
      case '"':
        out += "&#34;";
        break;
      case "'":
        out += "&#39;";
        break;
      case "&":
        out += "&amp;";
        break;
      case "<":
        out += "&lt;";
        break;
      case ">":
        out += "&gt;";
        break;
      case "\t":
        out += "&#x9;";
        break;
      case "\n":
        out += "&#xA;";
        break;
      case "\r":
        out += "&#xD;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Go's `emitCDATA`: nothing for an empty text, `]]>` split across sections. */
function cdata(s: string): string {
  if (s === "") return "";
  return `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)` for the non-negative durations written here. */
export function goFloat(f: number): string {
  if (f === 0) return "0";
  const exp = Math.floor(Math.log10(f));
  if (exp < -4 || exp >= 21) {
    const [m, e] = f.toExponential().split("e") as [string, string];
    const n = Number(e);
    return `${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  return String(f);
}

/** RFC 3339 in UTC to the second (Go's `time.RFC3339` of a UTC time). */
function timestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

const FAILED = "Test assertion failed";

/** Terraform's `getDiagString`: each diagnostic as `format.DiagnosticPlain` at width 80. */
function diagString(diags: readonly PlanDiagnostic[], dir: string): string {
  return diags
    .map(({ address, inConfigBody, ...rest }) => formatDiagnostics([inConfigBody === true && address !== undefined ? { ...rest, address } : rest], dir, false, { width: 80, addresses: true }))
    .join("");
}

function element(name: string, message: string | undefined, body: string, indent: string): string {
  const attr = message === undefined || message === "" ? "" : ` message="${escape(message)}"`;
  return `\n${indent}<${name}${attr}>${cdata(body)}</${name}>`;
}

function skipDetails(index: number, file: FileResult, stopped: boolean): { message?: string; body: string } {
  if (stopped)
    return {
      message: "Testcase skipped due to an interrupt",
      body: "Terraform received an interrupt and stopped gracefully. This caused all remaining testcases to be skipped",
    };
  if (file.status === "error")
    for (let i = index; i >= 0; i--) {
      const r = file.runs[i]!;
      if (r.status === "error")
        return {
          message: "Testcase skipped due to a previous testcase error",
          body: `Previous testcase ${JSON.stringify(r.run.name)} ended in error, which caused the remaining tests in the file to be skipped`,
        };
    }
  return { body: "" };
}

function testCase(run: RunResult, index: number, file: FileResult, stopped: boolean, dir: string): string {
  const i2 = "    ";
  const i3 = "      ";
  let attrs = ` name="${escape(run.run.name)}" classname="${escape(file.file.name)}"`;
  if (run.execution !== undefined) {
    // Go's Duration.Seconds(): whole seconds plus the nanoseconds left over.
    const ns = run.execution.durationNs;
    const seconds = Math.floor(ns / 1e9) + (ns % 1e9) / 1e9;
    if (seconds !== 0) attrs += ` time="${goFloat(seconds)}"`;
    attrs += ` timestamp="${timestamp(run.execution.start)}"`;
  }
  let inner = "";
  switch (run.status) {
    case "skip": {
      const s = skipDetails(index, file, stopped);
      inner += element("skipped", s.message, s.body, i3);
      break;
    }
    case "fail": {
      const failed = run.diagnostics.filter((d) => d.severity === "error" && d.summary === FAILED);
      const checks = run.run.asserts.length;
      const message =
        failed.length === 0
          ? ""
          : `${failed.length} of ${checks} assertions failed${failed.length === 1 ? ": " : ", including: "}${failed[0]!.detail ?? ""}`;
      inner += element("failure", message, diagString(failed, dir), i3);
      break;
    }
    case "error":
      inner += element("error", "Encountered an error", diagString(run.diagnostics.filter((d) => d.severity === "error"), dir), i3);
      break;
    default:
      break;
  }
  if (run.diagnostics.length > 0) {
    const systemErr =
      run.status === "error"
        ? run.diagnostics.filter((d) => d.severity === "warning")
        : run.diagnostics.filter((d) => d.summary !== FAILED);
    if (systemErr.length > 0) inner += element("system-err", undefined, diagString(systemErr, dir), i3);
  }
  return inner === "" ? `\n${i2}<testcase${attrs}></testcase>` : `\n${i2}<testcase${attrs}>${inner}\n${i2}</testcase>`;
}

/**
 * The JUnit XML report of a suite, as terraform 1.11.4's `-junit-xml` writes it (its
 * `junitXMLTestReport`): a `testsuite` per file (sorted by name) with its counts, a
 * `testcase` per run with its time and start, and the skip, failure or error with the
 * diagnostics as Terraform prints them plainly (80 columns) in CDATA sections.
 *
 * @param dir The configuration directory (for the source snippets).
 * @param stopped Whether the suite was interrupted.
 */
export function junitXmlReport(suite: SuiteResult, dir: string, stopped: boolean): string {
  let out = `<?xml version="1.0" encoding="UTF-8"?><testsuites>`;
  const files = [...suite.files].sort((a, b) => (a.file.name < b.file.name ? -1 : a.file.name > b.file.name ? 1 : 0));
  for (const file of files) {
    const count = (s: string) => String(file.runs.filter((r) => r.status === s).length);
    out += `\n  <testsuite name="${escape(file.file.name)}" tests="${file.runs.length}" skipped="${count("skip")}" failures="${count("fail")}" errors="${count("error")}">`;
    file.runs.forEach((run, i) => (out += testCase(run, i, file, stopped, dir)));
    out += `\n  </testsuite>`;
  }
  out += files.length === 0 ? "</testsuites>" : `\n</testsuites>`;
  return out;
}
