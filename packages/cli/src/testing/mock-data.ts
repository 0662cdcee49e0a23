import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Value } from "@magma/cty";
import {
  decodeSource,
  evaluate,
  parseConfig,
  type Block,
  type Body,
  type BodySchema,
  type Diagnostic,
  type SourceRange,
} from "@magma/hcl";
import { decodeOverride, useForPlan, type TestOverride } from "./test-override.js";
import { testFileError, blockDefRange, rangeText } from "./test-file-blocks.js";

/** A `mock_resource` or `mock_data` block (Terraform's `configs.MockResource`). */
export interface MockResource {
  readonly mode: "managed" | "data";
  readonly type: string;
  /** The `defaults` object (undefined when not given). */
  readonly defaults?: Value;
  /** `override_during = plan`: the defaults are used while planning, not unknowns. */
  readonly useForPlan: boolean;
  readonly declRange: SourceRange;
  readonly typeRange: SourceRange;
  readonly defaultsRange?: SourceRange;
}

/** The mock data of a `mock_provider` block and its `.tfmock.hcl` files (Terraform's `configs.MockData`). */
export interface MockData {
  readonly resources: Map<string, MockResource>;
  readonly dataSources: Map<string, MockResource>;
  /** The `override_resource`/`override_data` blocks within it. */
  readonly overrides: TestOverride[];
}

/** `mock_provider`'s own attributes (Terraform's `mockProviderSchema`). */
export const MOCK_PROVIDER_SCHEMA: BodySchema = {
  attributes: [{ name: "alias" }, { name: "source" }, { name: "override_during" }],
};

const MOCK_DATA_SCHEMA: BodySchema = {
  blocks: [
    { type: "mock_resource", labelNames: ["type"] },
    { type: "mock_data", labelNames: ["type"] },
    { type: "override_resource" },
    { type: "override_data" },
  ],
};

const MOCK_RESOURCE_SCHEMA: BodySchema = {
  attributes: [{ name: "defaults" }, { name: "override_during" }],
};





/** Terraform's `decodeMockDataBody`: the `mock_resource`, `mock_data` and override blocks of a body. */
export function decodeMockDataBody(body: Body, useForPlanDefault: boolean, diags: Diagnostic[]): MockData {
  const { content, diags: d } = body.content(MOCK_DATA_SCHEMA);
  diags.push(...d);
  const data: MockData = { resources: new Map(), dataSources: new Map(), overrides: [] };
  for (const block of content.blocks) {
    if (block.type === "override_resource" || block.type === "override_data") {
      data.overrides.push(decodeOverride(block, useForPlanDefault, diags));
      continue;
    }
    const r = decodeMockResource(block, useForPlanDefault, diags);
    const into = r.mode === "managed" ? data.resources : data.dataSources;
    const previous = into.get(r.type);
    if (previous !== undefined) {
      diags.push(testFileError(`Duplicate ${block.type} block`, `A ${block.type} block for ${r.type} has already been defined at ${rangeText(previous.declRange)}.`, r.typeRange));
      continue;
    }
    into.set(r.type, r);
  }
  return data;
}

function decodeMockResource(block: Block, useForPlanDefault: boolean, diags: Diagnostic[]): MockResource {
  const { content, diags: d } = block.body.content(MOCK_RESOURCE_SCHEMA);
  diags.push(...d);
  let defaults: Value | undefined;
  let defaultsRange: SourceRange | undefined;
  const a = content.attributes.get("defaults");
  if (a !== undefined) {
    defaultsRange = a.range;
    const r = evaluate(a.expr);
    diags.push(...r.diags);
    defaults = r.value;
  }
  return {
    mode: block.type === "mock_resource" ? "managed" : "data",
    type: block.labels[0] ?? "",
    ...(defaults !== undefined ? { defaults } : {}),
    ...(defaultsRange !== undefined ? { defaultsRange } : {}),
    useForPlan: useForPlan(content, useForPlanDefault, diags),
    declRange: blockDefRange(block),
    typeRange: block.labelRanges[0] ?? block.typeRange,
  };
}

/**
 * Terraform's `MockData.Merge`: `other`'s mock blocks added to `data`; a type both define is
 * kept from `data` when `skipCollisions`, else an error.
 */
export function mergeMockData(data: MockData, other: MockData, skipCollisions: boolean, diags: Diagnostic[]): void {
  for (const [into, from, kind] of [
    [data.resources, other.resources, "mock_resource"],
    [data.dataSources, other.dataSources, "mock_data"],
  ] as const) {
    for (const [name, r] of from) {
      const current = into.get(name);
      if (current === undefined) {
        into.set(name, r);
        continue;
      }
      if (skipCollisions) continue;
      diags.push(testFileError("Duplicate mock resource block", `A ${kind} ${JSON.stringify(name)} block already exists at ${rangeText(current.declRange)}.`, r.typeRange));
    }
  }
  data.overrides.push(...other.overrides);
}

/**
 * Terraform's `LoadMockDataDir`: the `.tfmock.hcl` and `.tfmock.json` files of a directory
 * (relative to `cwd`), merged (a type defined twice is an error).
 */
export function loadMockDataDir(cwd: string, dir: string, useForPlanDefault: boolean, source: SourceRange, diags: Diagnostic[]): MockData | undefined {
  let names: string[];
  try {
    names = readdirSync(join(cwd, dir)).sort();
  } catch {
    diags.push(testFileError("Failed to read mock data directory", `Mock data directory ${dir} does not exist or cannot be read.`, source));
    return undefined;
  }
  let data: MockData | undefined;
  for (const name of names) {
    if (!(name.endsWith(".tfmock.hcl") || name.endsWith(".tfmock.json"))) continue;
    if (name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"))) continue;
    const path = join(cwd, dir, name);
    try {
      if (statSync(path).isDirectory()) continue;
    } catch {
      continue;
    }
    const shown = join(dir, name);
    let text: string;
    try {
      text = name.endsWith(".json") ? readFileSync(path, "utf8") : decodeSource(readFileSync(path));
    } catch (e) {
      diags.push(testFileError("Failed to read file", `The file ${JSON.stringify(shown)} could not be read: ${(e as Error).message}.`));
      continue;
    }
    const parsed = parseConfig(text, shown);
    diags.push(...parsed.diags);
    if (parsed.diags.some((x) => x.severity === "error")) continue;
    const current = decodeMockDataBody(parsed.body, useForPlanDefault, diags);
    if (data === undefined) data = current;
    else mergeMockData(data, current, false, diags);
  }
  return data;
}
