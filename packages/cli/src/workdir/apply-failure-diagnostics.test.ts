import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@magma/config";
import { Path } from "@magma/cty";
import type { FailedObject } from "@magma/engine";
import { applyFailureDiagnostics, EXECUTION_HALTED } from "./apply-failure-diagnostics.js";
import { terraformDiagnosticOrder } from "./terraform-diagnostic-order.js";
import { formatDiagnostics } from "./format-diagnostic.js";

const MAIN = `resource "random_id" "a" {
  byte_length = 4
}

resource "random_id" "b" {
  count       = 2
  byte_length = 8
}
`;

describe("applyFailureDiagnostics", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-apply-failure-"));
    writeFileSync(join(dir, "main.tf"), MAIN);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a failed object's diagnostics carry its address and the place in its block: the named attribute, else the opening brace", () => {
    const { config } = loadConfig(dir);
    const failed: FailedObject[] = [
      { address: "random_id.b[1]", action: "create", error: undefined, diagnostics: [{ severity: "error", summary: "bad length", detail: "too long", attribute: Path.root.attr("byte_length") }] },
      { address: "random_id.a", action: "create", error: undefined, diagnostics: [{ severity: "error", summary: "denied" }] },
      { address: "random_id.gone", action: "delete", error: undefined, diagnostics: [{ severity: "error", summary: "still in use", detail: "x" }] },
    ];
    const diags = applyFailureDiagnostics(failed, config);
    expect(diags.map((d) => [d.address, d.subject?.start.line, d.subject?.start.column, d.subject?.end.column])).toEqual([
      ["random_id.b[1]", 7, 17, 18],
      ["random_id.a", 1, 26, 27],
      ["random_id.gone", undefined, undefined, undefined],
    ]);
    // Terraform's order: located errors by position, those without a location first.
    const text = formatDiagnostics(terraformDiagnosticOrder([...diags, EXECUTION_HALTED]), dir, false, { addresses: true });
    expect(text).toBe(
      [
        "\nError: still in use\n\n  with random_id.gone,\nx\n",
        "\nError: execution halted\n\n",
        '\nError: denied\n\n  with random_id.a,\n  on main.tf line 1, in resource "random_id" "a":\n   1: resource "random_id" "a" {\n\n',
        '\nError: bad length\n\n  with random_id.b[1],\n  on main.tf line 7, in resource "random_id" "b":\n   7:   byte_length = 8\n\ntoo long\n',
      ].join(""),
    );
    // Without the configuration: addresses only.
    expect(applyFailureDiagnostics(failed, undefined).every((d) => d.subject === undefined)).toBe(true);
  });

  test("terraformDiagnosticOrder puts warnings first and keeps the order of equals", () => {
    const w = { severity: "warning" as const, summary: "w", detail: "" };
    const e1 = { severity: "error" as const, summary: "e1", detail: "" };
    const e2 = { severity: "error" as const, summary: "e2", detail: "" };
    expect(terraformDiagnosticOrder([e1, w, e2]).map((d) => d.summary)).toEqual(["w", "e1", "e2"]);
  });
});
