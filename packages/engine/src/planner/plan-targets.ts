import { isStateError, parseModuleInstance, parseResourceInstance, type InstanceKey, type ModuleInstanceAddress, type ResourceMode } from "@magma/state";
import { planError, type PlanDiagnostic } from "./plan-diagnostic.js";

/**
 * A `-target` address, parsed as Terraform's `addrs.ParseTarget` does: a module instance
 * (`module.m`, `module.m["a"]`), a resource (`aws_x.y`, `module.m.data.aws_z.w`) or a resource
 * instance (`aws_x.y[0]`).
 */
export type PlanTarget =
  | { readonly kind: "module"; readonly text: string; readonly module: ModuleInstanceAddress }
  | {
      readonly kind: "resource";
      readonly text: string;
      readonly module: ModuleInstanceAddress;
      readonly mode: ResourceMode;
      readonly type: string;
      readonly name: string;
      /** Present for a resource instance target. */
      readonly instance?: { readonly key: InstanceKey };
    };

/** A resource instance, as the targeting rules compare it. */
export interface TargetableInstance {
  readonly module: ModuleInstanceAddress;
  readonly mode: ResourceMode;
  readonly type: string;
  readonly name: string;
  readonly key: InstanceKey;
}

/**
 * Parses `-target` addresses. Bad ones are diagnostics (Terraform's "Invalid target address"),
 * never thrown.
 */
export function parsePlanTargets(texts: readonly string[]): { targets: PlanTarget[]; diagnostics: PlanDiagnostic[] } {
  const targets: PlanTarget[] = [];
  const diagnostics: PlanDiagnostic[] = [];
  for (const text of texts) {
    try {
      if (/^module\.[^.[]+(\[[^\]]*\])?(\.module\.[^.[]+(\[[^\]]*\])?)*$/.test(text)) {
        targets.push({ kind: "module", text, module: parseModuleInstance(text) });
        continue;
      }
      const a = parseResourceInstance(text);
      // `aws_x.y[0]` names one instance; `aws_x.y` the whole resource.
      const instance = /\]$/.test(text) ? { instance: { key: a.key } } : {};
      targets.push({ kind: "resource", text, module: a.module, mode: a.mode, type: a.type, name: a.name, ...instance });
    } catch (e) {
      if (!isStateError(e)) throw e;
      diagnostics.push(planError("Invalid target address", `${e.message}.`, { address: text }));
    }
  }
  return { targets, diagnostics };
}

/** Whether a module instance target contains a module instance (a last step without key contains every instance of its call, as Terraform's `ModuleInstance.TargetContains`). */
function moduleContains(target: ModuleInstanceAddress, m: ModuleInstanceAddress): boolean {
  if (m.length < target.length) return false;
  for (let i = 0; i < target.length; i++) {
    const t = target[i]!;
    const o = m[i]!;
    if (t.name !== o.name) return false;
    if (i === target.length - 1 && t.key === undefined) return true;
    if (t.key !== o.key) return false;
  }
  return true;
}

function sameModule(a: ModuleInstanceAddress, b: ModuleInstanceAddress): boolean {
  return a.length === b.length && a.every((s, i) => s.name === b[i]!.name && s.key === b[i]!.key);
}

/** Whether a target contains a resource instance (Terraform's `TargetContains` on absolute addresses). */
export function targetContainsInstance(t: PlanTarget, i: TargetableInstance): boolean {
  if (t.kind === "module") return moduleContains(t.module, i.module);
  if (t.mode !== i.mode || t.type !== i.type || t.name !== i.name || !sameModule(t.module, i.module)) return false;
  return t.instance === undefined || t.instance.key === i.key;
}

/**
 * Whether a target addresses a resource of the configuration (by module path, before
 * expansion): the target generalised to its configuration address, as Terraform's
 * `nodeIsTarget` does for not yet expanded resource nodes.
 */
export function targetContainsConfigResource(t: PlanTarget, modulePath: readonly string[], mode: ResourceMode, type: string, name: string): boolean {
  const names = t.module.map((s) => s.name);
  if (t.kind === "module") return names.length <= modulePath.length && names.every((n, i) => n === modulePath[i]);
  return t.mode === mode && t.type === type && t.name === name && names.length === modulePath.length && names.every((n, i) => n === modulePath[i]);
}

/** Terraform's warning on a plan made with `-target`. */
export const TARGETING_WARNING = {
  summary: "Resource targeting is in effect",
  detail:
    "You are creating a plan with the -target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message.",
} as const;

/** Terraform's warning after applying a plan made with `-target`. */
export const TARGETED_APPLY_WARNING = {
  summary: "Applied changes may be incomplete",
  detail:
    'The plan was created with the -target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    terraform plan\n\nNote that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message.',
} as const;
