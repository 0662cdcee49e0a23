import { createHash } from "node:crypto";
import type { Value } from "@magma/cty";
import type { FunctionResultHash } from "../eval/provider-functions.js";
import type { PlannedInstanceChange } from "./planned-instance-change.js";
import type { ConfigSnapshot } from "@magma/config";
import type { StateFile } from "@magma/state";
import { planBody } from "./plan-body.js";
import type { PlannedCheck } from "./planned-check.js";

/** The state a plan was made against: the lineage and serial of its prior state. */
export interface PlanPriorState {
  /** The prior state's lineage (a UUID fixed at its creation). */
  readonly lineage: string;
  /** The prior state's serial. */
  readonly serial: number;
}

/** What a plan was made for, as Terraform's plan modes. */
export type PlanMode = "normal" | "destroy" | "refresh-only";

/** A root module output as planned. */
export interface PlannedOutput {
  /** The output name. */
  readonly name: string;
  /** `create`, `update`, `delete` or `no-op`, as `terraform show -json`'s `output_changes`. */
  readonly action: "create" | "update" | "delete" | "no-op";
  /** The value in the prior state (null when absent). */
  readonly before: Value;
  /** The planned value, unknown where it depends on values known only after apply (null on delete). */
  readonly after: Value;
  /** Whether the output is sensitive. */
  readonly sensitive: boolean;
  /**
   * Whether the prior state's value was sensitive (absent: not). Terraform's output change is
   * sensitive when either side is (`sensitiveBefore || Config.Sensitive` in its output node):
   * `show -json`'s before_sensitive and after_sensitive say so.
   */
  readonly sensitiveBefore?: boolean;
}

/** Where a data source read during the plan came from. */
export interface DataReadSource {
  /** The absolute provider configuration address it was read with, e.g. `provider["registry.terraform.io/hashicorp/aws"].west`. */
  readonly provider: string;
  /** The data source's schema version. */
  readonly schemaVersion: number;
  /**
   * The schema's implied type (go-cty type JSON) when it has dynamically-typed attributes:
   * the state stores those with their type (`{"value": …, "type": …}`), which the value read
   * alone cannot tell.
   */
  readonly typeJson?: string;
  /**
   * The paths of the read's sensitive values (the schema's sensitive attributes and sensitive
   * configuration values) as state's `sensitive_attributes` JSON; absent: none (plans written
   * before it was kept).
   */
  readonly sensitiveAttributesJson?: string;
}

/** A provider configuration the apply needs. */
export interface PlannedProvider {
  /** The absolute provider configuration address, e.g. `provider["registry.terraform.io/hashicorp/aws"].west`. */
  readonly address: string;
  /** The provider's source address, e.g. `registry.terraform.io/hashicorp/aws`: what the engine opens. */
  readonly source: string;
  /** The version constraint from `required_providers`, when given. */
  readonly version?: string;
  /** The absolute resource addresses its configuration depends on (it is configured after they are applied). */
  readonly dependencies: readonly string[];
}

/**
 * A plan: the change of every instance, the state it was made against and a digest of
 * the configuration, with an identity hash over all three. `apply` refuses a plan whose
 * state has moved on (see {@link assertPlanCurrent}).
 */
export interface Plan {
  /** The per-instance changes, in plan order. */
  readonly changes: readonly PlannedInstanceChange[];
  /** The state the plan was made against. */
  readonly prior: PlanPriorState;
  /** A digest of the configuration the plan was made from (hex), as the caller computed it. */
  readonly configDigest: string;
  /** The plan identity: SHA-256 (hex) over the changes, the prior lineage and serial, and the config digest. */
  readonly identity: string;

  // What the configuration-level planner adds (absent on plans built from instance changes alone).

  /** The plan mode (default `normal`). */
  readonly mode?: PlanMode;
  /** The root module's outputs as planned. */
  readonly outputs?: readonly PlannedOutput[];
  /** The provider configurations the changes use. */
  readonly providers?: readonly PlannedProvider[];
  /**
   * The root module's input variable values the plan was made with (a saved plan is applied
   * with the same values); never an ephemeral variable's (see {@link applyTimeVariables}).
   */
  readonly variables?: Readonly<Record<string, Value>>;
  /**
   * The root module's ephemeral variables that were set (not null) when planning: their
   * values are not kept, and applying the saved plan needs them again (Terraform's
   * `apply_time_variables`).
   */
  readonly applyTimeVariables?: readonly string[];
  /**
   * The root module's non-ephemeral variables the caller did not set when planning (left at
   * their defaults): terraform's plan records only the values the caller set, so a value given
   * for one of these when applying the saved plan is "Value for undeclared variable" there.
   */
  readonly defaultedVariables?: readonly string[];
  /**
   * The data source instances read during the plan, by address (Terraform keeps them in
   * the plan's prior state): their values are not changes, but the apply's re-evaluation
   * of the configuration refers to them.
   */
  readonly dataReads?: Readonly<Record<string, Value>>;
  /** Per data source of {@link dataReads}: where it was read from (the apply writes the reads to state with it, as Terraform's refreshed state holds them). */
  readonly dataReadSources?: Readonly<Record<string, DataReadSource>>;
  /**
   * The data source instances of the prior state the configuration no longer has, by address:
   * Terraform's plan removes these orphans from its refreshed state, so the apply leaves them
   * out of the state it writes (absent or empty: none).
   */
  readonly dataRemovals?: readonly string[];
  /**
   * The objects the refresh found changed or gone outside magma (Terraform's
   * `resource_drift`; action `update` or `delete`, before = as stored, after = as read). A
   * refresh-only plan has no changes: applying it writes these reads to state.
   */
  readonly drift?: readonly PlannedInstanceChange[];
  /**
   * For a refresh-only plan: the current objects of resources in the configuration whose
   * stored `dependencies` lack some of the configuration's, by instance address, with the
   * union of both (sorted) — what Terraform's refresh writes for every refreshed object
   * (`mergeDeps`). Absent: none.
   */
  readonly refreshedDependencies?: Readonly<Record<string, readonly string[]>>;
  /** The `-target` addresses the plan was made with (absent: not targeted). */
  readonly targets?: readonly string[];
  /**
   * The provider-defined function calls the plan made, with their results as digests
   * (Terraform's function results): the apply calls them again and a different result is an
   * error (absent or empty: none made).
   */
  readonly functionResults?: readonly FunctionResultHash[];
  /**
   * The checkable objects of the configuration (conditions, `check` blocks, variable
   * validations) and how their conditions came out at plan (Terraform's `checks`).
   */
  readonly checks?: readonly PlannedCheck[];
  /**
   * The configuration files the plan was made from (Terraform's configuration snapshot, which
   * its plan file carries): a saved plan is applied from them, whatever the files on disk
   * hold since (absent for a plan made from a `Config` object).
   */
  readonly configSnapshot?: ConfigSnapshot;
  /**
   * The dependency lock file (`.terraform.lock.hcl`) text the plan was made with, when the
   * caller recorded it (the CLI does): a saved plan applies only with the same provider
   * selections, as terraform's.
   */
  readonly dependencyLocks?: string;
  /**
   * The state the plan was made from, when the caller recorded it (the CLI does, for a saved
   * plan): `show PLANFILE` renders the plan against it, as terraform's plan file keeps its
   * prior state, whatever the state is now.
   */
  readonly priorStateFile?: StateFile;
}

/** The parts of a {@link Plan} that {@link createPlan} takes. */
export interface PlanInput {
  /** The per-instance changes. */
  readonly changes: readonly PlannedInstanceChange[];
  /** The state the plan was made against. */
  readonly prior: PlanPriorState;
  /** A digest of the configuration (hex). */
  readonly configDigest: string;
}

/** Builds a {@link Plan}; its identity is computed when first read (see {@link withPlanIdentity}). */
export function createPlan(input: PlanInput): Plan {
  return withPlanIdentity({ changes: input.changes, prior: input.prior, configDigest: input.configDigest });
}

/**
 * A plan from its fields, with {@link Plan.identity} computed from its changes, prior state
 * and config digest when it is first read, then kept (an enumerable property: spreading,
 * cloning or comparing the plan reads it). Encoding every change for the hash costs as much
 * memory as the plan itself, and a plan that is only shown, or applied in the process that
 * made it, never needs it; a plan file does.
 */
export function withPlanIdentity<T extends PlanInput>(fields: T): T & { readonly identity: string } {
  const { changes, prior, configDigest, ...rest } = fields;
  const plan = { changes, prior, configDigest, identity: "", ...rest };
  let identity: string | undefined;
  Object.defineProperty(plan, "identity", { enumerable: true, configurable: true, get: () => (identity ??= planIdentity(plan)) });
  return plan as unknown as T & { readonly identity: string };
}

/**
 * The plan identity: SHA-256 (hex) over everything a plan file holds (see `planBody`): the
 * changes (address, action, values with their unknowns, requires-replace paths, private data),
 * the prior state's lineage and serial, the config digest, and every planner field present
 * (mode, outputs, providers, variables, drift, targets, function results, checks, data
 * reads, the configuration snapshot, the dependency locks) — not the warnings. Equal plans
 * have equal identities; a plan file edited anywhere no longer matches its identity.
 */
export function planIdentity(input: PlanInput & Partial<Omit<Plan, "identity">>): string {
  return createHash("sha256").update(canonicalJson(planBody(input))).digest("hex");
}

/** JSON text with every object's keys sorted (undefined members left out): the same for the same content, whatever order its keys were built in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((e) => (e === undefined ? "null" : canonicalJson(e))).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}
