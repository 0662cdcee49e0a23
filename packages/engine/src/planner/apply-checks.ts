import type { Value } from "@magma/cty";
import type { SourceRange } from "@magma/hcl";
import { EPHEMERAL_MARK } from "../ephemeral/ephemeral-mark.js";
import type { CheckRule, Config, Resource } from "@magma/config";
import { evaluate, formatRange, scopeExpressionValues, type EvalScope } from "@magma/hcl";
import { formatModuleInstance, type ModuleInstanceAddress } from "@magma/state";
import type { ApplyChecksRequest, ApplyChecksResult, ConditionOutcome } from "../apply/apply-scope.js";
import { evaluateExpansion } from "../eval/expansion.js";
import { configPrefix, instancePrefix, type ModuleEvaluator } from "../eval/module-evaluator.js";
import { aggregateCheckStatus, type PlannedCheck, type PlannedCheckInstance } from "../plan/planned-check.js";
import { expandedInstance } from "./expanded-instance.js";
import { isPlanDiagnosticsError, planError, type PlanDiagnostic } from "./plan-diagnostic.js";

/** One condition's outcome. */
type RuleOutcome = ConditionOutcome;

/**
 * The check results of an apply, as Terraform's apply walk makes them (`checks.State` seeded
 * from the plan's results, `context_walk.go`): every checkable object whose instances the
 * plan knew starts with those instances and every condition `unknown` (one the plan knew no
 * instances of stays without any); then, with the applied values, the preconditions and
 * postconditions of the resource instances the walk visited, the preconditions of every
 * output instance, the validations of every variable instance and the assertions of every
 * `check` block instance are evaluated again (a check whose data source could not be read
 * fails with the read's error, its assertions left unknown, as Terraform's `nodeCheckAssert`).
 *
 * A false condition is Terraform's error ("Resource postcondition failed", "Module output
 * value precondition failed", "Invalid value for variable"), a warning for a `check` block
 * ("Check block assertion failed"); an unknown assertion warns "Check block assertion known
 * after apply". Each instance's failure messages are kept, sorted (the state's
 * `failure_messages`).
 */
export function evaluateApplyChecks(ev: ModuleEvaluator, root: Config, request: ApplyChecksRequest): ApplyChecksResult {
  const diagnostics: PlanDiagnostic[] = [];
  /** Per checkable object (configuration address), its known instances and their conditions' outcomes. */
  const outcomes = new Map<string, Map<string, { readonly instance: PlannedCheckInstance; readonly rules: RuleOutcome[] }>>();
  for (const c of request.planned) {
    const m = new Map<string, { instance: PlannedCheckInstance; rules: RuleOutcome[] }>();
    for (const i of c.instances) m.set(i.address, { instance: i, rules: [] });
    outcomes.set(c.address, m);
  }
  const entryOf = (config: string, address: string): { readonly rules: RuleOutcome[] } | undefined => outcomes.get(config)?.get(address);
  const rulesScope = (mi: ModuleInstanceAddress, rules: readonly CheckRule[]) => (): EvalScope => ev.scope(mi, undefined, ev.refsOfExprs(rules.flatMap((r) => [r.condition, r.errorMessage])));

  const visit = (c: Config): void => {
    const m = c.module;
    const cfg = configPrefix(c.path);
    let instances: ModuleInstanceAddress[];
    try {
      instances = ev.instancesOf(c.path);
    } catch (e) {
      if (!isPlanDiagnosticsError(e)) throw e;
      instances = [];
    }
    for (const mi of instances) {
      const prefix = instancePrefix(mi);
      const module = formatModuleInstance(mi);
      for (const v of m.variables.values()) {
        const entry = entryOf(`${cfg}var.${v.name}`, `${prefix}var.${v.name}`);
        if (entry !== undefined) for (const rule of v.validations) entry.rules.push(evaluateRule(rule, rulesScope(mi, v.validations), "variable", diagnostics));
      }
      for (const r of [...m.managedResources.values(), ...m.dataResources.values()]) {
        if (r.preconditions.length === 0 && r.postconditions.length === 0) continue;
        const key = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
        for (const [address, e] of outcomes.get(`${cfg}${key}`) ?? []) {
          if ((e.instance.module ?? "") !== module) continue;
          // Evaluated already by the walk, right after the instance was applied; else now, if the walk visited it.
          const done = request.evaluated?.get(address);
          if (done !== undefined) e.rules.push(...done);
          else if (request.applied(address)) e.rules.push(...resourceConditions(ev, r, mi, e.instance.instanceKey, diagnostics));
        }
      }
      for (const o of m.outputs.values()) {
        const entry = entryOf(`${cfg}output.${o.name}`, `${prefix}output.${o.name}`);
        if (entry !== undefined) for (const rule of o.preconditions) entry.rules.push(evaluateRule(rule, rulesScope(mi, o.preconditions), "output", diagnostics));
      }
      for (const ch of m.checks.values()) {
        const entry = entryOf(`${cfg}check.${ch.name}`, `${prefix}check.${ch.name}`);
        if (entry === undefined) continue;
        const data = ch.dataResource;
        const dataAddress = data === undefined ? undefined : `${prefix}data.${data.type}.${data.name}`;
        const failed = dataAddress === undefined ? undefined : [...request.failedCheckData].find(([a]) => a === dataAddress || a.startsWith(`${dataAddress}[`))?.[1];
        // As Terraform's nodeCheckAssert: a check whose data source could not be read is not evaluated further.
        if (failed !== undefined) entry.rules.push({ status: "fail", message: failed });
        else for (const rule of ch.asserts) entry.rules.push(evaluateRule(rule, rulesScope(mi, ch.asserts), "check", diagnostics));
      }
    }
    for (const child of c.children.values()) visit(child);
  };
  visit(root);

  const checks = request.planned.map((c): PlannedCheck => {
    const instances = [...(outcomes.get(c.address)?.values() ?? [])].map(
      ({ instance, rules }): PlannedCheckInstance => ({
        ...instance,
        // Conditions not evaluated again stay unknown.
        status: rules.length === 0 ? "unknown" : aggregateCheckStatus(rules.map((r) => r.status)),
        problems: rules.flatMap((r) => (r.status === "fail" && r.message !== undefined && r.message !== "" ? [r.message] : [])).sort(),
      }),
    );
    // An object the plan knew no instances of stays as the plan left it (unknown, or none: pass).
    return { ...c, status: instances.length === 0 ? c.status : aggregateCheckStatus(instances.map((i) => i.status)), instances };
  });
  return { checks, diagnostics };
}

/**
 * The preconditions and postconditions of one resource instance evaluated with the applied
 * values (`self` is the instance's object), as Terraform's apply node evaluates them: the
 * preconditions before the instance is applied (`which` "pre"), the postconditions after
 * ("post"; an ephemeral resource's preconditions before its open, its postconditions after);
 * each condition's outcome, in order; diagnostics go to `out`.
 */
export function resourceConditions(ev: ModuleEvaluator, r: Resource, mi: ModuleInstanceAddress, k: number | string | undefined, out: PlanDiagnostic[], which: "all" | "pre" | "post" = "all"): ConditionOutcome[] {
  const key = `${r.mode === "data" ? "data." : r.mode === "ephemeral" ? "ephemeral." : ""}${r.type}.${r.name}`;
  const refs = ev.refsOfExprs([...r.preconditions, ...r.postconditions].flatMap((x) => [x.condition, x.errorMessage]));
  const scopeOf = (withSelf: boolean) => (): EvalScope => {
    const ex = evaluateExpansion(r.count, r.forEach, ev.scope(mi, undefined, ev.refsOfExprs([r.count, r.forEach])), r.mode === "ephemeral" ? { allowEphemeral: true } : {});
    const sc = ev.scope(mi, expandedInstance(ex.expansion, k), refs);
    if (!withSelf) return sc;
    const all = ev.resource(mi, key);
    const self: Value = k === undefined ? all : typeof k === "number" ? all.index(k) : all.getAttr(k);
    return { ...sc, variables: new Map([...(sc.variables as ReadonlyMap<string, Value>), ["self", self]]) };
  };
  const pre = which === "post" ? [] : r.preconditions.map((rule) => evaluateRule(rule, scopeOf(false), "precondition", out));
  const post = which === "pre" ? [] : r.postconditions.map((rule) => evaluateRule(rule, scopeOf(true), "postcondition", out));
  return [...pre, ...post];
}

/** What a rule checks, for its diagnostics' words. */
type RuleKind = "precondition" | "postcondition" | "output" | "variable" | "check";

const SUMMARY: Readonly<Record<RuleKind, string>> = {
  precondition: "Resource precondition failed",
  postcondition: "Resource postcondition failed",
  output: "Module output value precondition failed",
  variable: "Invalid value for variable",
  check: "Check block assertion failed",
};

/** Terraform's message in place of an error message built from a sensitive value. */
const SENSITIVE_MESSAGE = "The error message included a sensitive value, so it will not be displayed.";

/** Terraform's detail of a failed condition whose error message could not be shown. */
const INVALID_MESSAGE = "This check failed, but has an invalid error message as described in the other accompanying messages.";

/**
 * The error message of a failed resource, output or check condition, as Terraform's
 * `EvalCheckErrorMessage` makes it: one built from a sensitive or an ephemeral value is not
 * shown (a warning says why, and the failure's detail says the message is invalid); an unknown
 * one is empty. (A variable's validation words a sensitive message otherwise.)
 */
export function conditionErrorMessage(m: Value, range: SourceRange): { message: string; detail: string; warnings: PlanDiagnostic[] } {
  const { value, paths } = m.unmarkDeep();
  const has = (mark: string): boolean => m.isMarked(mark) || paths.some((p) => p.marks.has(mark));
  const hidden = (what: string, fix: string): { message: string; detail: string; warnings: PlanDiagnostic[] } => ({
    message: "",
    detail: INVALID_MESSAGE,
    warnings: [{ severity: "warning", summary: `Error message refers to ${what} values`, detail: `The error expression used to explain this condition refers to ${what} values, so Terraform will not display the resulting message.\n\n${fix}`, subject: range }],
  });
  if (has("sensitive")) return hidden("sensitive", "You can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.");
  if (has(EPHEMERAL_MARK)) return hidden("ephemeral", "You can correct this by removing references to ephemeral values, or by using the ephemeralasnull() function on the references to not reveal ephemeral data.");
  const message = value.isKnown() && !value.isNull() && value.type.kind === "string" ? value.asString().trim() : "";
  return { message, detail: message === "" ? INVALID_MESSAGE : message, warnings: [] };
}

/**
 * One condition (Terraform's `evalCheckRule`): its status, and a diagnostic when it failed
 * (an error; a warning in a `check` block), could not be evaluated, or — in a `check`
 * block — is still unknown. A `check` block's diagnostics are marked {@link PlanDiagnostic.fromCheckBlock}.
 */
function evaluateRule(rule: CheckRule, scopeOf: () => EvalScope, kind: RuleKind, out: PlanDiagnostic[]): RuleOutcome {
  const inCheck = kind === "check" ? { fromCheckBlock: true } : {};
  // A check block's problems are warnings (as at plan).
  const push = (ds: readonly PlanDiagnostic[]): void => void out.push(...(kind === "check" ? ds.map((d) => ({ ...d, severity: "warning" as const, ...inCheck })) : ds));
  let scope: EvalScope;
  try {
    scope = scopeOf();
  } catch (e) {
    if (!isPlanDiagnosticsError(e)) throw e;
    push(e.diagnostics);
    return { status: "error" };
  }
  // As Terraform (`validateCheckRule`): the error message is evaluated first, whatever the condition's result, so its
  // warnings (a message built from a sensitive or an ephemeral value) are reported even when the condition holds.
  const said = kind === "variable" ? undefined : conditionErrorMessage(evaluate(rule.errorMessage, scope).value, rule.errorMessage.range);
  if (said !== undefined) push(said.warnings);
  const c = evaluate(rule.condition, scope);
  const errs = c.diags.filter((d) => d.severity === "error");
  if (errs.length > 0) {
    push(errs);
    return { status: "error" };
  }
  const cv = c.value.unmarkDeep().value;
  const values = scopeExpressionValues(rule.condition, scope);
  if (!cv.isKnown()) {
    if (kind === "check") push([{ severity: "warning", summary: "Check block assertion known after apply", detail: "The condition could not be evaluated at this time, a result will be known when this plan is applied.", subject: rule.condition.range, values }]);
    return { status: "unknown" };
  }
  if (cv.isNull()) {
    push([planError("Invalid condition result", "Condition expression must return either true or false, not null.", { subject: rule.condition.range })]);
    return { status: "error" };
  }
  if (cv.asBool()) return { status: "pass" };
  if (said !== undefined) {
    push([{ severity: "error", summary: SUMMARY[kind], detail: said.detail, subject: rule.condition.range, values }]);
    return { status: "fail", message: said.message };
  }
  const mv = evaluate(rule.errorMessage, scope).value.unmarkDeep();
  let message = mv.paths.length > 0 ? SENSITIVE_MESSAGE : mv.value.isKnown() && !mv.value.isNull() && mv.value.type.kind === "string" ? mv.value.asString() : "";
  message = message.trim() === "" ? "Failed to evaluate condition error message." : message.trim();
  const detail = `${message}\n\nThis was checked by the validation rule at ${formatRange(rule.declRange)}.`;
  push([{ severity: "error", summary: SUMMARY[kind], detail, subject: rule.condition.range, values }]);
  return { status: "fail", message };
}
