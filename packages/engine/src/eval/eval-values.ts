import { dynamicVal, emptyObjectVal, emptyTupleVal, numberVal, objectVal, stringVal, tupleVal, type Value } from "@magma/cty";
import type { EvalScope, HclFunction } from "@magma/hcl";
import type { Expansion } from "./expansion.js";

/** What is known of one resource or data source while walking: its expansion and its instances' values. */
export interface ResourceValues {
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly name: string;
  readonly expansion: Expansion;
  /** Instance values by key (`undefined` for a single instance); unknown parts where still to be applied. */
  readonly instances: ReadonlyMap<number | string | undefined, Value>;
}

/**
 * The values an expression of one module instance can refer to, filled in as the walk
 * visits their nodes: input variables, locals, resources and data sources, module call
 * outputs.
 */
export class EvalValues {
  /** `var.<name>`. */
  readonly variables = new Map<string, Value>();
  /** `local.<name>`. */
  readonly locals = new Map<string, Value>();
  /** Resources by `type.name`, data sources by `data.type.name`. */
  readonly resources = new Map<string, ResourceValues>();
  /** `module.<name>`: a module call's value (an object of outputs, a tuple or object of them when repeated). */
  readonly modules = new Map<string, Value>();
}

/** The fixed parts of a module's scope. */
export interface ScopeContext {
  /** `path.module` (relative to the working directory, `.` for the root module). */
  readonly pathModule: string;
  /** `path.root`. */
  readonly pathRoot: string;
  /** `path.cwd`: the working directory (absolute). */
  readonly cwd: string;
  /** `terraform.workspace`. */
  readonly workspace: string;
  /** Terraform's functions (rooted at the working directory). */
  readonly functions: ReadonlyMap<string, HclFunction>;
}

/** `count.index` and `each.key`/`each.value` of the instance being evaluated. */
export interface InstanceRepetition {
  readonly key: number | string | undefined;
  readonly eachValue?: Value;
}

/** The value of a whole resource as expressions see it: the object, a tuple (count) or an object by key (for_each). */
export function resourceValue(r: ResourceValues): Value {
  const get = (k: number | string | undefined): Value => r.instances.get(k) ?? dynamicVal;
  switch (r.expansion.kind) {
    case "single":
      return get(undefined);
    case "count":
      return r.expansion.count === 0 ? emptyTupleVal : tupleVal(Array.from({ length: r.expansion.count }, (_, i) => get(i)));
    case "for_each": {
      const out: Record<string, Value> = {};
      for (const k of [...r.expansion.entries.keys()].sort()) out[k] = get(k);
      return Object.keys(out).length === 0 ? emptyObjectVal : objectVal(out);
    }
  }
}

function record(m: ReadonlyMap<string, Value>): Value {
  return m.size === 0 ? emptyObjectVal : objectVal(Object.fromEntries(m));
}

/**
 * The evaluation scope of one module instance (Terraform's `lang.Scope` with its data):
 * `var`, `local`, resources by type, `data`, `module`, `path`, `terraform.workspace`,
 * `count.index`/`each` for a repeated object, and Terraform's functions.
 */
export function buildEvalScope(values: EvalValues, ctx: ScopeContext, repetition?: InstanceRepetition): EvalScope {
  const vars: Record<string, Value> = {};
  const managed = new Map<string, Map<string, Value>>();
  const data = new Map<string, Map<string, Value>>();
  for (const r of values.resources.values()) {
    const byType = r.mode === "data" ? data : managed;
    let m = byType.get(r.type);
    if (m === undefined) byType.set(r.type, (m = new Map()));
    m.set(r.name, resourceValue(r));
  }
  for (const [type, m] of managed) vars[type] = record(m);
  const dataTypes = new Map<string, Value>();
  for (const [type, m] of data) dataTypes.set(type, record(m));
  vars["data"] = record(dataTypes);
  vars["var"] = record(values.variables);
  vars["local"] = record(values.locals);
  vars["module"] = record(values.modules);
  vars["path"] = objectVal({ module: stringVal(ctx.pathModule), root: stringVal(ctx.pathRoot), cwd: stringVal(ctx.cwd) });
  vars["terraform"] = objectVal({ workspace: stringVal(ctx.workspace) });
  if (repetition !== undefined) {
    if (typeof repetition.key === "number") vars["count"] = objectVal({ index: numberVal(repetition.key) });
    else if (typeof repetition.key === "string") vars["each"] = objectVal({ key: stringVal(repetition.key), value: repetition.eachValue ?? stringVal(repetition.key) });
  }
  return { variables: vars, functions: ctx.functions, baseDir: ctx.cwd };
}
