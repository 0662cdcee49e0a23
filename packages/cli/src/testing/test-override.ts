import type { Value } from "@magma/cty";
import { descendantConfig, parseConfigAddress, type Config } from "@magma/config";
import { parseModuleInstance, parseResourceInstance } from "@magma/state";
import { absTraversalForExpr, evaluate, exprAsKeyword, type Block, type BodyContent, type BodySchema, type Diagnostic, type SourceRange, type Traversal } from "@magma/hcl";
import { testFileError, blockDefRange } from "./test-file-blocks.js";

/** An `override_resource`, `override_data` or `override_module` block (Terraform's `configs.Override`). */
export interface TestOverride {
  readonly kind: "override_resource" | "override_data" | "override_module";
  /** The target address as Terraform prints it (`aws_s3_bucket.b`, `data.x.y[0]`, `module.m`); undefined when invalid. */
  readonly target?: string;
  /** The `target` attribute's range. */
  readonly targetRange?: SourceRange;
  /** The `values` (or `outputs`) object; an empty object when not given. */
  readonly values?: Value;
  /** `override_during = plan`. */
  readonly useForPlan: boolean;
  readonly declRange: SourceRange;
  readonly valuesRange?: SourceRange;
}



/** A traversal as Terraform prints an address (`module.m[0].aws_x.y["k"]`). */
function addressText(t: Traversal): string {
  let s = t.root;
  for (const step of t.steps) {
    if (step.kind === "attr") s += `.${step.name}`;
    else if (step.key.type.kind === "string") s += `[${JSON.stringify(step.key.asString())}]`;
    else if (step.key.type.kind === "number") s += `[${step.key.asNumber().toString()}]`;
  }
  return s;
}

/** Terraform's `useForPlan`: the `override_during` attribute of a block's content (`plan` or `apply`), else the default. */
export function useForPlan(content: BodyContent, def: boolean, diags: Diagnostic[]): boolean {
  const a = content.attributes.get("override_during");
  if (a === undefined) return def;
  switch (exprAsKeyword(a.expr)) {
    case "plan":
      return true;
    case "apply":
      return false;
    default:
      diags.push(testFileError("Invalid override_during value", "The override_during attribute must be a value of plan or apply.", a.range));
      return def;
  }
}

/** What an address names (Terraform's `addrs.ParseTarget`, its errors added): a module (instance), a managed or a data resource (instance); undefined when invalid. */
function targetKind(t: Traversal, diags: Diagnostic[]): "module" | "managed" | "data" | undefined {
  const a = parseConfigAddress(t, diags);
  if (a === undefined) return undefined;
  return a.resource?.mode ?? (a.modules.length > 0 ? "module" : undefined);
}

/** Terraform's `decodeOverrideResourceBlock`/`decodeOverrideDataBlock`/`decodeOverrideModuleBlock`. */
export function decodeOverride(block: Block, useForPlanDefault: boolean, diags: Diagnostic[]): TestOverride {
  const kind = block.type as TestOverride["kind"];
  const attributeName = kind === "override_module" ? "outputs" : "values";
  const schema: BodySchema = { attributes: [{ name: "target" }, { name: "override_during" }, { name: attributeName }] };
  const { content, diags: d } = block.body.content(schema);
  diags.push(...d);
  const declRange = blockDefRange(block);
  let target: string | undefined;
  const t = content.attributes.get("target");
  if (t !== undefined) {
    const r = absTraversalForExpr(t.expr);
    diags.push(...r.diags);
    if (r.traversal !== undefined) {
      const parsed: Diagnostic[] = [];
      const k = targetKind(r.traversal, parsed);
      diags.push(...parsed);
      const text = addressText(r.traversal);
      const want = kind === "override_module" ? "module" : kind === "override_data" ? "data" : "managed";
      if (parsed.length > 0) {
        // Not an address: no target (Terraform's ParseTarget gives none).
      } else if (k !== want) {
        const what = kind === "override_module" ? "modules" : kind === "override_data" ? "data sources" : "resources";
        diags.push(testFileError("Invalid override target", `You can only target ${what} from ${kind} blocks, not ${text}.`, t.range));
      } else target = text;
    }
  } else diags.push(testFileError("Missing target attribute", `${kind} blocks must specify a target address.`, declRange));
  let values: Value | undefined;
  let valuesRange: SourceRange | undefined;
  const v = content.attributes.get(attributeName);
  if (v !== undefined) {
    valuesRange = v.range;
    const r = evaluate(v.expr);
    diags.push(...r.diags);
    values = r.value;
  }
  const plan = useForPlan(content, useForPlanDefault, diags);
  if (values !== undefined && values.type.kind !== "object")
    diags.push(testFileError(`Invalid ${attributeName} attribute`, `${kind} blocks must specify ${attributeName === "outputs" ? "an" : "a"} ${attributeName} attribute that is an object.`, valuesRange));
  return {
    kind,
    ...(target !== undefined ? { target, ...(t !== undefined ? { targetRange: t.range } : {}) } : {}),
    ...(values !== undefined ? { values } : {}),
    ...(valuesRange !== undefined ? { valuesRange } : {}),
    useForPlan: plan,
    declRange,
  };
}

/** Terraform's `Config.TargetExists`: whether a configuration declares what an override targets (a module call, whatever its instance keys; a resource). */
export function overrideTargetExists(config: Config, o: TestOverride): boolean {
  if (o.target === undefined) return true;
  if (o.kind === "override_module") return descendantConfig(config, parseModuleInstance(o.target).map((s) => s.name)) !== undefined;
  const a = parseResourceInstance(o.target);
  const module = descendantConfig(config, a.module.map((s) => s.name))?.module;
  return a.mode === "data" ? module?.dataResources.has(`data.${a.type}.${a.name}`) === true : module?.managedResources.has(`${a.type}.${a.name}`) === true;
}

/** Terraform's warning for an override whose target the configuration under test does not declare. */
export function missingTargetWarning(o: TestOverride): Diagnostic {
  return {
    severity: "warning",
    summary: "Invalid override target",
    detail: `The override target ${o.target ?? ""} does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.`,
    ...(o.targetRange !== undefined ? { subject: o.targetRange } : {}),
  };
}
