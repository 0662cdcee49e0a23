import type { Config } from "@magma/config";
import { aggregateCheckStatus, type CheckStatus, type PlannedCheck, type PlannedCheckInstance } from "../plan/planned-check.js";

/** Where a condition was evaluated: the instance of a checkable object. */
export interface CheckInstanceRef {
  /** The checkable object's configuration address (`module.m.aws_x.y`, `output.o`, `check.c`, `var.v`). */
  readonly config: string;
  /** The instance address. */
  readonly address: string;
  /** The module instance address ("" for the root module). */
  readonly module: string;
  /** The resource instance key. */
  readonly key?: number | string;
}

interface Entry {
  readonly object: Omit<PlannedCheck, "status" | "instances">;
  readonly instances: Map<string, { readonly ref: CheckInstanceRef; readonly rules: Map<string, { readonly status: CheckStatus; readonly problem?: string }> }>;
}

/**
 * Collects the outcome of every condition the planner evaluates, per checkable object of
 * the configuration (Terraform's `checks.State`): resources and data sources with
 * preconditions or postconditions, outputs with preconditions, `check` blocks and variables
 * with validations are known from the start (status `unknown` until an instance reports).
 */
export class CheckRecorder {
  readonly #objects = new Map<string, Entry>();
  readonly #known = new Set<string>();

  constructor(root: Config) {
    const visit = (c: Config): void => {
      const module = c.path.map((n) => `module.${n}`).join(".");
      const prefix = module === "" ? "" : `${module}.`;
      const add = (address: string, object: Omit<PlannedCheck, "status" | "instances" | "address" | "module">): void => {
        this.#objects.set(address, { object: { address, ...(module === "" ? {} : { module }), ...object }, instances: new Map() });
      };
      for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values()]) {
        if (r.mode === "ephemeral" || (r.preconditions.length === 0 && r.postconditions.length === 0)) continue;
        add(`${prefix}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`, { kind: "resource", mode: r.mode, type: r.type, name: r.name });
      }
      for (const o of c.module.outputs.values()) if (o.preconditions.length > 0) add(`${prefix}output.${o.name}`, { kind: "output_value", name: o.name });
      for (const name of c.module.checks.keys()) add(`${prefix}check.${name}`, { kind: "check", name });
      for (const v of c.module.variables.values()) if (v.validations.length > 0) add(`${prefix}var.${v.name}`, { kind: "var", name: v.name });
      for (const child of c.children.values()) visit(child);
    };
    visit(root);
  }

  /**
   * Records one condition's outcome (`problem`: the failure's error message); `rule` names
   * the condition within the instance, so an evaluation run again (provider function rounds)
   * replaces its earlier outcome. Objects that are not checkable are ignored.
   */
  note(ref: CheckInstanceRef, rule: string, status: CheckStatus, problem?: string): void {
    const e = this.#objects.get(ref.config);
    if (e === undefined) return;
    let i = e.instances.get(ref.address);
    if (i === undefined) e.instances.set(ref.address, (i = { ref, rules: new Map() }));
    i.rules.set(rule, problem === undefined ? { status } : { status, problem });
  }

  /**
   * Records that the plan knows the instances of a checkable object (Terraform's
   * `ReportCheckableObjects`): one with none then aggregates as `pass`, not `unknown`.
   */
  known(config: string): void {
    this.#known.add(config);
  }

  /** Every checkable object with its instances' statuses and the aggregate. */
  results(): PlannedCheck[] {
    return [...this.#objects.values()].map((e) => {
      const instances: PlannedCheckInstance[] = [...e.instances.values()].map((i) => ({
        address: i.ref.address,
        ...(i.ref.module === "" ? {} : { module: i.ref.module }),
        ...(i.ref.key !== undefined ? { instanceKey: i.ref.key } : {}),
        status: aggregateCheckStatus([...i.rules.values()].map((r) => r.status)),
        problems: [...i.rules.values()].flatMap((r) => (r.problem === undefined ? [] : [r.problem])),
      }));
      return { ...e.object, status: instances.length === 0 && this.#known.has(e.object.address) ? "pass" : aggregateCheckStatus(instances.map((i) => i.status)), instances };
    });
  }
}
