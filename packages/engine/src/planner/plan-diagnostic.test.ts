import { loadModuleFromFiles } from "@magma/config";
import { Path } from "@magma/cty";
import { formatRange } from "@magma/hcl";
import { ProviderError, type Diag } from "@magma/provider-api";
import { isPlanDiagnosticsError, providerDiagnosticsInBody } from "./plan-diagnostic.js";

const { module } = loadModuleFromFiles("/work", new Map([["main.tf", 'resource "random_id" "x" {\n  byte_length = 4\n  keepers     = { a = "b" }\n}\n']]));
const resource = module.managedResources.get("random_id.x")!;
const refused = (diagnostics: Diag[]): ProviderError<"diagnostics"> => new ProviderError({ code: "diagnostics", diagnostics }, "refused");

describe("providerDiagnosticsInBody", () => {
  test("a provider's diagnostics: each with the address and its place in the block, marked inConfigBody", () => {
    const e = providerDiagnosticsInBody(
      refused([
        { severity: "error", summary: "bad keepers", detail: "no", attribute: Path.root.attr("keepers") },
        { severity: "warning", summary: "deprecated", detail: "" },
      ]),
      resource,
      "random_id.x[0]",
    );
    expect(isPlanDiagnosticsError(e)).toBe(true);
    if (!isPlanDiagnosticsError(e)) return;
    expect(e.diagnostics.map((d) => ({ ...d, subject: d.subject === undefined ? undefined : formatRange(d.subject) }))).toEqual([
      // The attribute's expression; without an attribute, the block's opening brace.
      { severity: "error", summary: "bad keepers", detail: "no", address: "random_id.x[0]", inConfigBody: true, subject: "main.tf:3,17-28" },
      { severity: "warning", summary: "deprecated", detail: "", address: "random_id.x[0]", inConfigBody: true, subject: "main.tf:1,26-27" },
    ]);
  });

  test("anything else is left as it is", () => {
    const other = new Error("boom");
    expect(providerDiagnosticsInBody(other, resource, "random_id.x")).toBe(other);
    const transport = new ProviderError({ code: "transport" }, "gone");
    expect(providerDiagnosticsInBody(transport, resource, "random_id.x")).toBe(transport);
    const warningsOnly = refused([{ severity: "warning", summary: "w", detail: "" }]);
    expect(providerDiagnosticsInBody(warningsOnly, resource, "random_id.x")).toBe(warningsOnly);
  });
});
