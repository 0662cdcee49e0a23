/**
 * What the comparer looks at in one step of one tool, normalised so that terraform's and
 * magma's observations are equal exactly when the tools agree, and the comparison of two.
 */

/** The observation of one step by one tool. */
export interface StepObservation {
  /** `init`'s exit code, when the step ran it. */
  readonly init?: number | null;
  /** `plan -out`'s exit code, summary lines and diagnostic summaries. */
  readonly plan: CommandObservation;
  /** `show -json PLANFILE`, normalised ({@link normalisePlanJson}). */
  readonly planJson?: unknown;
  /** `apply PLANFILE`. */
  readonly apply?: CommandObservation;
  /** The state file after the apply, normalised ({@link normaliseState}). */
  readonly state?: unknown;
  /** `plan -detailed-exitcode` after the apply. */
  readonly replan?: CommandObservation;
}

/** A command's exit code, the summary lines it printed, the moves and refreshes it announced and the summaries of its diagnostics. */
export interface CommandObservation {
  readonly code: number | null;
  readonly summary: readonly string[];
  /** The `ADDR: Refreshing state... [id=…]` lines, sorted (the tools refresh in parallel). */
  readonly refreshed?: readonly string[];
  /** The plan text's `# A has moved to B` lines, sorted (the order of the plan's objects is not compared). */
  readonly moved?: readonly string[];
  readonly diagnostics: readonly string[];
}

const SUMMARY = /^(Plan: .*|No changes\..*|Apply complete! .*|Changes to Outputs:|You can apply this plan to save these new output values.*)$/;
const MOVED = /^ {2}# \S+ has moved to \S+$/;
const REFRESHED = /^\S+(?: \(deposed object \w+\))?: Refreshing state\.\.\.(?: \[id=.*\])?$/;
const DIAGNOSTIC = /^(?:│ )?((?:Error|Warning): .*)$/;

/** The summary lines and diagnostic summaries of a command's output (AWS request ids blanked). */
export function observeCommand(code: number | null, stdout: string, stderr: string): CommandObservation {
  const summary: string[] = [];
  const refreshed: string[] = [];
  const moved: string[] = [];
  const diagnostics: string[] = [];
  for (const line of `${stdout}\n${stderr}`.split("\n")) {
    const t = line.trimEnd();
    if (SUMMARY.test(t)) summary.push(t);
    if (REFRESHED.test(t)) refreshed.push(t);
    if (MOVED.test(t)) moved.push(t);
    const d = DIAGNOSTIC.exec(t);
    // AWS request ids differ from call to call.
    if (d !== null) diagnostics.push(d[1]!.replace(/RequestID: [0-9a-fA-F-]+/g, "RequestID: (id)"));
  }
  return { code, summary, ...(refreshed.length > 0 ? { refreshed: refreshed.sort() } : {}), ...(moved.length > 0 ? { moved: moved.sort() } : {}), diagnostics: diagnostics.sort() };
}

type Json = Record<string, unknown>;

function byKey<T>(items: unknown, key: (x: Json) => string): Record<string, T> {
  const out: Record<string, T> = {};
  if (!Array.isArray(items)) return out;
  for (const x of items as Json[]) out[key(x)] = x as T;
  return out;
}

function change(rc: Json): Json {
  const c = (rc["change"] ?? {}) as Json;
  const pick: Json = {};
  for (const k of ["actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive", "replace_paths", "importing"]) if (c[k] !== undefined) pick[k] = c[k];
  const out: Json = { change: pick };
  for (const k of ["action_reason", "previous_address", "deposed"]) if (rc[k] !== undefined) out[k] = rc[k];
  return out;
}

/**
 * The parts of `show -json PLANFILE` the comparer compares: `resource_changes` and
 * `resource_drift` keyed by address (each change's actions, before/after, after_unknown,
 * sensitivity, replace_paths, importing; action_reason, previous_address, deposed),
 * `output_changes`, `checks` keyed by address, `errored`. `replace_paths` are sorted
 * (terraform builds them from a map).
 */
export function normalisePlanJson(doc: Json): Json {
  const rcKey = (x: Json): string => `${String(x["address"])}${x["deposed"] !== undefined ? ` (deposed ${String(x["deposed"])})` : ""}`;
  const changes = (list: unknown): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(byKey<Json>(list, rcKey))) {
      const c = change(v);
      const rp = (c["change"] as Json)["replace_paths"];
      if (Array.isArray(rp)) (c["change"] as Json)["replace_paths"] = [...(rp as unknown[])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      out[k] = c;
    }
    return out;
  };
  const checks: Json = {};
  if (Array.isArray(doc["checks"])) {
    for (const c of doc["checks"] as Json[]) {
      const a = (c["address"] ?? {}) as Json;
      checks[String(a["to_display"])] = { status: c["status"], instances: c["instances"] };
    }
  }
  return {
    errored: doc["errored"],
    resource_changes: changes(doc["resource_changes"]),
    resource_drift: changes(doc["resource_drift"]),
    output_changes: doc["output_changes"] ?? {},
    checks,
  };
}

function sortedByJson(items: readonly unknown[]): unknown[] {
  return [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
}

/**
 * A state file without what differs between any two runs (`lineage`, `terraform_version`)
 * and without `serial` (terraform persists intermediate snapshots during an apply, each one
 * counting, so its serial says how often it wrote, not what it wrote), resources keyed by
 * module/mode/type/name, each instance's `sensitive_attributes` sorted (terraform lists them
 * in go-cty's transform order, which visits an object's attributes in Go map order: random
 * from run to run) and `check_results` keyed by address, their objects too (Go map order
 * in terraform's state as well).
 */
export function normaliseState(doc: Json): Json {
  const resources = byKey<Json>(doc["resources"], (r) => `${r["module"] !== undefined ? `${String(r["module"])}.` : ""}${r["mode"] === "data" ? "data." : ""}${String(r["type"])}.${String(r["name"])}`);
  for (const r of Object.values(resources)) {
    if (!Array.isArray(r["instances"])) continue;
    r["instances"] = (r["instances"] as Json[]).map((i) => (Array.isArray(i["sensitive_attributes"]) ? { ...i, sensitive_attributes: sortedByJson(i["sensitive_attributes"] as unknown[]) } : i));
  }
  const checks = byKey<Json>(doc["check_results"], (c) => JSON.stringify(c["config_addr"] ?? c["object_kind"]));
  // Each check's objects by address: terraform writes them from an addrs.Map (Go map order, random from run to run).
  for (const c of Object.values(checks)) if (Array.isArray(c["objects"])) c["objects"] = byKey<Json>(c["objects"], (o) => String(o["object_addr"]));
  return { version: doc["version"], outputs: doc["outputs"], resources, check_results: checks };
}

/** One difference: where, and the two sides (JSON text, shortened). */
export interface Difference {
  /** The step it was seen in. */
  readonly step: number;
  /** The path inside the step's observations, e.g. `planJson.resource_changes["testbed_value.s1_v0"].change.after.input`. */
  readonly path: string;
  readonly terraform: string;
  readonly magma: string;
}

function show(v: unknown): string {
  const t = v === undefined ? "(absent)" : JSON.stringify(v);
  return t.length > 400 ? `${t.slice(0, 400)}…` : t;
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The differences between two values, as paths to the first differing leaves (deep, keys in order). */
export function diffValues(step: number, path: string, a: unknown, b: unknown, out: Difference[] = []): Difference[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) diffValues(step, `${path}[${JSON.stringify(k)}]`, a[k], b[k], out);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffValues(step, `${path}[${i}]`, x, b[i], out));
    return out;
  }
  out.push({ step, path, terraform: show(a), magma: show(b) });
  return out;
}

/**
 * A difference's signature: its path without step, stack prefixes, instance keys and
 * numbers, so that the shrinker keeps looking for the same kind of difference.
 */
export function differenceSignature(d: Difference): string {
  return d.path
    .replace(/s\d+_/g, "s_")
    .replace(/\[\\?"[^\]]*\]/g, (m) => m.replace(/[0-9]+/g, "N"))
    .replace(/\[[0-9]+\]/g, "[N]");
}
