// The validate walk's provider validation (Terraform's ValidateResourceConfig,
// ValidateDataResourceConfig and ValidateProviderConfig in its validate walk) with a native
// provider that warns about deprecated arguments and refuses some values: what is asked, with
// which (unknown) values, and where the diagnostics land. The terraform comparison is
// packages/cli/test/provider-validate-diagnostics-terraform.test.ts (hashicorp/aws).
import { Path, stringType, type Value } from "@magma/cty";
import { formatRange } from "@magma/hcl";
import { createNativeProvider, createSchemaEntry, errorDiag, warningDiag, type Diag } from "@magma/provider-api";
import { ProviderFunctionCalls } from "../eval/provider-functions.js";
import { validateExpressions } from "../eval/validate-expressions.js";
import type { PlanDiagnostic } from "./plan-diagnostic.js";
import { providerConfigValidator, providerResourceValidator } from "./provider-resource-validator.js";
import { configOf } from "./test-support.js";

const bucket = createSchemaEntry({ attributes: { name: { type: stringType, optional: true }, acl: { type: stringType, optional: true } } });
const providerEntry = createSchemaEntry({ attributes: { region: { type: stringType, optional: true } } });

/** What the provider was asked: kind, type and the configuration (as cty's Go-ish string). */
const asked: string[] = [];

const provider = createNativeProvider({
  getSchema: () => ({ provider: providerEntry, resources: new Map([["x_bucket", bucket]]), dataSources: new Map([["x_bucket", bucket]]) }),
  configure: () => undefined,
  planResourceChange: (_t, _p, proposed) => ({ plannedState: proposed }),
  applyResourceChange: (_t, _p, planned) => ({ newState: planned }),
  readResource: (_t, current) => ({ newState: current }),
  readDataSource: (_t, config) => ({ state: config }),
  importResourceState: () => ({ resources: [] }),
  upgradeResourceState: () => ({}),
  validateProviderConfig: (config) => {
    asked.push(`provider ${config.getAttr("region").isKnown() ? "known" : "unknown"}`);
    const region = config.getAttr("region");
    return { diagnostics: region.isKnown() && !region.isNull() && region.asString() === "nowhere" ? [errorDiag("Invalid region", "nowhere is not a region.", Path.root.attr("region"))] : [] };
  },
  validateResourceConfig: (t, config) => {
    asked.push(`resource ${t} name ${config.getAttr("name").isKnown() ? "known" : "unknown"}`);
    return { diagnostics: deprecated(config) };
  },
  validateDataResourceConfig: (t, config) => {
    asked.push(`data ${t}`);
    return { diagnostics: deprecated(config) };
  },
});

function deprecated(config: Value): Diag[] {
  return config.getAttr("acl").isNull() ? [] : [warningDiag("Argument is deprecated", "acl is deprecated.", Path.root.attr("acl"))];
}

const REQUIRED = `terraform {
  required_providers {
    x = { source = "example/x" }
  }
}
`;

async function walk(files: Record<string, string>): Promise<PlanDiagnostic[]> {
  const { config, dir, cleanup } = configOf(files);
  const schema = await provider.getSchema();
  const calls = new ProviderFunctionCalls(() => Promise.reject(new Error("no functions here")));
  try {
    return (await validateExpressions(config, calls, {
      cwd: dir,
      schemas: (_p, mode, type) => (mode === "managed" ? schema.resources : schema.dataSources).get(type)?.block,
      validateResource: providerResourceValidator(async () => provider),
      validateProvider: providerConfigValidator(config, async () => provider, () => schema.provider.block),
    })) as PlanDiagnostic[];
  } finally {
    await calls.close();
    cleanup();
  }
}

const shown = (d: PlanDiagnostic): string => `${d.severity} ${d.summary} ${d.address ?? "-"} ${d.subject === undefined ? "-" : formatRange(d.subject)}${d.inConfigBody === true ? " in body" : ""}`;

beforeEach(() => asked.splice(0));

test("each resource and data source is validated once, unexpanded, with unknown inputs; warnings land at the attribute with the configuration address", async () => {
  const diags = await walk({
    "main.tf": `${REQUIRED}variable "n" {
  type = string
}
provider "x" {
  region = "here"
}
resource "x_bucket" "a" {
  count = 2
  name  = var.n
  acl   = "private"
}
data "x_bucket" "d" {
  acl = "public"
}
resource "x_bucket" "quiet" {
  name = "q"
}
`,
  });
  expect(asked.sort()).toEqual(["data x_bucket", "provider known", "resource x_bucket name known", "resource x_bucket name unknown"]);
  expect(diags.map(shown).sort()).toEqual([
    "warning Argument is deprecated data.x_bucket.d main.tf:18,9-17 in body",
    "warning Argument is deprecated x_bucket.a main.tf:15,11-20 in body",
  ]);
});

test("a provider block the provider refuses: its error at the attribute, and its resources not validated", async () => {
  const diags = await walk({
    "main.tf": `${REQUIRED}provider "x" {
  region = "nowhere"
}
resource "x_bucket" "a" {
  acl = "private"
}
`,
  });
  expect(diags.map(shown)).toEqual(['error Invalid region provider["registry.terraform.io/example/x"] main.tf:7,12-21 in body']);
  expect(asked).toEqual(["provider known"]);
});
