import type { Value } from "@magma/cty";
import { isProviderError, type Diag } from "@magma/provider-api";
import type { CreateConflictAdoption, CreateConflictHandler, CreateConflictInput } from "../apply/create-conflict.js";
import { isEngineError, EngineError, EngineErrorCode } from "../engine-error.js";
import { applyInstance } from "../instance/apply-instance.js";
import { planInstance } from "../instance/plan-instance.js";
import { isReplace, PlanAction } from "../plan/plan-action.js";
import { importResource } from "./import-resource.js";

/** What an {@link IdRule} function is given. */
export interface IdRuleInput {
  /** The instance address. */
  readonly address: string;
  /** The resource type. */
  readonly typeName: string;
  /** The configuration the create was applied with (wholly known). */
  readonly config: Value;
  /** The planned object of the create (may hold unknowns where the provider computes values). */
  readonly planned: Value;
}

/**
 * How to derive the import id of an object whose create conflicted: the name of a
 * top-level attribute whose configured (else planned) value is the id — e.g. `"name"` for
 * `aws_ssm_parameter` — or a function returning the id, or `undefined` when it cannot tell.
 */
export type IdRule = string | ((input: IdRuleInput) => string | undefined);

/** A per-type recogniser of "already exists" failures: given the create's error diagnostics and the error itself. */
export type ConflictRule = RegExp | ((diagnostics: readonly Diag[], error: unknown) => boolean);

/**
 * The built-in id rules: resource types whose import id is one of their configured
 * attributes (from each type's "Import" documentation in hashicorp/aws 5.x). An id rule of
 * the options overrides these; a type with neither falls back to the planned `id`.
 */
export const DEFAULT_ID_RULES: Readonly<Record<string, string>> = Object.freeze({
  aws_ssm_parameter: "name",
  aws_cloudwatch_log_group: "name",
  aws_iam_role: "name",
  aws_iam_user: "name",
  aws_iam_group: "name",
  aws_iam_instance_profile: "name",
  aws_s3_bucket: "bucket",
  aws_dynamodb_table: "name",
  aws_ecr_repository: "name",
  aws_lambda_function: "function_name",
  aws_kms_alias: "name",
});

/**
 * The built-in identifying attributes, for types where the id alone is not enough to call
 * the existing object "the configured one": an `aws_ssm_parameter` is identified by its name
 * *and* its type — measured with hashicorp/aws 5.100.0, a `String` configuration would
 * otherwise adopt a `SecureString` of the same name and overwrite its secret in place.
 * `identity` in the options overrides these.
 */
export const DEFAULT_IDENTITY: Readonly<Record<string, readonly string[]>> = Object.freeze({
  aws_ssm_parameter: Object.freeze(["name", "type"]),
});

/**
 * The generic "already exists" recognisers, matched against the summary and detail of the
 * create's error diagnostics:
 *
 * - an AWS-style error code ending in `AlreadyExists` (`ParameterAlreadyExists`,
 *   `ResourceAlreadyExistsException`, `EntityAlreadyExists`, `RepositoryAlreadyExistsException`…);
 * - the phrase "already exists" (AWS, Azure's "A resource with the ID … already exists",
 *   Google's `alreadyExists`, Kubernetes' `AlreadyExists`, GitHub);
 * - an HTTP 409 Conflict as SDKs print it (`StatusCode: 409` in aws-sdk-go-v2, `Error 409` in
 *   googleapi, `409 Conflict`, `HTTP 409`, `status 409`, `status code 409`).
 *
 * A 409 can also mean "busy" (a concurrent modification); that is safe here because nothing
 * is adopted on the recognition alone: the import, the confirming read and the identity
 * check decide.
 */
export const ALREADY_EXISTS_PATTERNS: readonly RegExp[] = Object.freeze([
  /AlreadyExists/,
  /\balready exists\b/i,
  /\bStatusCode: 409\b/,
  /\b(?:HTTP|status|status code|Error)[ :]*409\b/i,
  /\b409 Conflict\b/i,
]);

/**
 * The built-in per-type recognisers, for conflicts the generic patterns miss:
 * `aws_s3_bucket`'s `BucketAlreadyOwnedByYou` (the bucket exists in this account).
 */
export const DEFAULT_CONFLICT_RULES: Readonly<Record<string, ConflictRule>> = Object.freeze({
  aws_s3_bucket: /BucketAlreadyOwnedByYou/,
});

/** Options of {@link createImportOnConflict}. Import on conflict is off unless `all` or `types` enables it. */
export interface ImportOnConflictOptions {
  /** Enable it for every resource type. */
  readonly all?: boolean;
  /** Enable it for these resource types. */
  readonly types?: readonly string[];
  /** Id rules by resource type, over {@link DEFAULT_ID_RULES}. */
  readonly idRules?: Readonly<Record<string, IdRule>>;
  /**
   * The identifying attributes by resource type: top-level attributes whose configured (else
   * planned) value must be known, non-null and equal to the existing object's before it is
   * adopted, over {@link DEFAULT_IDENTITY}. Otherwise: the id rule's attribute for an attribute rule; for the planned-`id`
   * fallback, `id`, which must equal the planned id (the provider's own plan of the
   * configuration). Required for a type whose id rule is a function.
   */
  readonly identity?: Readonly<Record<string, readonly string[]>>;
  /** Extra "already exists" recognisers by resource type, over {@link DEFAULT_CONFLICT_RULES}. */
  readonly conflictRules?: Readonly<Record<string, ConflictRule>>;
  /** Whether {@link ALREADY_EXISTS_PATTERNS} apply (default true); false leaves only the per-type rules. */
  readonly genericPatterns?: boolean;
  /** Told every decision (adopted or not, and why): for logs and events. */
  readonly onDecision?: (decision: ImportOnConflictDecision) => void;
}

/** The outcomes of the handler, as {@link ImportOnConflictDecision} reports them. */
export const ImportOnConflictOutcome = {
  /** The type is not enabled: the create's failure stands. */
  NotEnabled: "not-enabled",
  /** The failure is not an "already exists" conflict. */
  NotAConflict: "not-a-conflict",
  /** No import id could be derived (no rule, no known planned `id`). */
  NoId: "no-id",
  /** The import or its confirming read found no object with the id. */
  NotFound: "not-found",
  /** The import or the read failed otherwise (the detail says how). */
  ImportFailed: "import-failed",
  /** The existing object's identifying attributes differ from the configuration: not adopted. */
  IdentityMismatch: "identity-mismatch",
  /**
   * The create was half of a replace and the existing object is the very object being
   * replaced (its `id` equals the prior's): adopting it would let the replace destroy it, or
   * resurrect one being destroyed. Not adopted.
   */
  IsReplacedObject: "is-replaced-object",
  /** The existing object could only be made to match by replacing it: not adopted (a conflict is never routed to replace). */
  WouldReplace: "would-replace",
  /** Adopted, and the remaining update (if any) applied. */
  Adopted: "adopted",
  /** Adopted, but planning or applying the remaining update failed: state records the object, the instance fails. */
  AdoptedUpdateFailed: "adopted-update-failed",
} as const;

/** One of the {@link ImportOnConflictOutcome} values. */
export type ImportOnConflictOutcome = (typeof ImportOnConflictOutcome)[keyof typeof ImportOnConflictOutcome];

/** What the handler decided for one failed create. */
export interface ImportOnConflictDecision {
  /** The instance address. */
  readonly address: string;
  /** The resource type. */
  readonly typeName: string;
  /** What happened. */
  readonly outcome: ImportOnConflictOutcome;
  /** The import id, once derived. */
  readonly id?: string;
  /** A sentence for the user. */
  readonly detail: string;
}

/**
 * magma's import on create conflict (engine.md §8, issue 18 §4): a
 * {@link CreateConflictHandler} for the apply walk (`applyPlan({ onCreateConflict })`),
 * off by default and enabled per resource type (`types`) or globally (`all`).
 *
 * On a failed create (or the create half of a replace) of an enabled type it:
 *
 * 1. recognises an "already exists" failure: the error must be the provider's error
 *    diagnostics (`ProviderError` `diagnostics`; a partial apply is never a conflict) matching
 *    a per-type rule or {@link ALREADY_EXISTS_PATTERNS};
 * 2. derives the import id: the type's id rule (options, then {@link DEFAULT_ID_RULES}, e.g.
 *    `aws_ssm_parameter` → its `name`), else the planned `id` when known;
 * 3. imports it as `terraform import` does ({@link importResource}: ImportResourceState,
 *    then a confirming ReadResource);
 * 4. adopts it only if its identifying attributes equal the configuration's (never on a
 *    guess: a wrong adoption takes over someone else's object);
 * 5. refuses the very object a replace is replacing (same `id` as the prior), then plans
 *    the remaining change against the adopted object ({@link planInstance}); a plan
 *    that would replace it is refused — a conflict is never routed to replace;
 * 6. applies the remaining update ({@link applyInstance}) and resolves the adoption.
 *
 * It resolves `undefined` (the create's failure stands) whenever it cannot adopt safely,
 * and tells `onDecision` why. It does not reject for provider failures; it rejects only
 * with `invalid_argument` when an id rule names an attribute the type does not have, or
 * when an identity attribute does not exist.
 *
 * Not handled here: `ignore_changes` of the resource (the configuration given is planned
 * as it is against the adopted object).
 *
 * @throws {@link EngineError} `invalid_argument` for options that are not well formed.
 */
export function createImportOnConflict(options: ImportOnConflictOptions = {}): CreateConflictHandler {
  const types = new Set(options.types ?? []);
  for (const [k, v] of Object.entries(options.idRules ?? {})) {
    if (typeof v !== "function" && (typeof v !== "string" || v === "")) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `import on conflict: the id rule of ${k} must be an attribute name or a function`);
    }
    if (typeof v === "function" && (options.identity?.[k] ?? []).length === 0) {
      // An id computed by arbitrary code could name any object: only attributes compared with the configuration can confirm it.
      throw new EngineError(EngineErrorCode.InvalidArgument, `import on conflict: the id rule of ${k} is a function, so its identifying attributes must be given (identity.${k})`);
    }
  }
  for (const [k, v] of Object.entries(options.identity ?? {})) {
    if (!Array.isArray(v) || v.length === 0 || !v.every((a) => typeof a === "string" && a !== "")) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `import on conflict: identity.${k} must be a non-empty list of attribute names`);
    }
  }
  const report = (d: ImportOnConflictDecision): undefined => {
    options.onDecision?.(d);
    return undefined;
  };

  return async (input: CreateConflictInput): Promise<CreateConflictAdoption | undefined> => {
    const { target, change, config } = input;
    const { address, typeName } = change;
    const base = { address, typeName };
    if (change.mode !== "managed" || !(options.all === true || types.has(typeName))) {
      return report({ ...base, outcome: ImportOnConflictOutcome.NotEnabled, detail: `import on conflict is not enabled for ${typeName}` });
    }
    if (!isAlreadyExists(typeName, input.error, options)) {
      return report({ ...base, outcome: ImportOnConflictOutcome.NotAConflict, detail: `the create of ${address} did not fail because the object already exists` });
    }

    const rule = options.idRules?.[typeName] ?? DEFAULT_ID_RULES[typeName];
    const id = deriveId(rule, { address, typeName, config, planned: change.after });
    if (id === undefined) {
      return report({ ...base, outcome: ImportOnConflictOutcome.NoId, detail: `${address} already exists, but no import id could be derived (no id rule for ${typeName}, and no known planned id)` });
    }
    const identity = identityOf(typeName, rule, id, options);

    let imported;
    try {
      imported = await importResource(target, { address, typeName, id });
    } catch (e) {
      const notFound = isEngineError(e) && e.code === EngineErrorCode.ImportNotFound;
      return report({ ...base, id, outcome: notFound ? ImportOnConflictOutcome.NotFound : ImportOnConflictOutcome.ImportFailed, detail: `${address}: import of ${JSON.stringify(id)} failed: ${messageOf(e)}` });
    }
    const warnings: Diag[] = [...imported.warnings];

    const mismatch = identityMismatch(imported.object.state, identity, config, change.after, address);
    if (mismatch !== undefined) {
      return report({ ...base, id, outcome: ImportOnConflictOutcome.IdentityMismatch, detail: `${address}: the existing object ${JSON.stringify(id)} was not adopted: ${mismatch}` });
    }

    const replaced = idOf(change.before);
    if (replaced !== undefined && idOf(imported.object.state) === replaced) {
      return report({ ...base, id, outcome: ImportOnConflictOutcome.IsReplacedObject, detail: `${address}: the existing object ${JSON.stringify(id)} is the object this change replaces (id ${JSON.stringify(replaced)}), so it cannot be adopted as its replacement` });
    }

    let plan;
    try {
      plan = await planInstance(target, { address, typeName, prior: imported.object, config, ...(change.createBeforeDestroy === undefined ? {} : { createBeforeDestroy: change.createBeforeDestroy }) });
    } catch (error) {
      report({ ...base, id, outcome: ImportOnConflictOutcome.AdoptedUpdateFailed, detail: `${address}: adopted ${JSON.stringify(id)}, but planning the remaining update failed: ${messageOf(error)}` });
      return { object: imported.object, id, warnings, error };
    }
    warnings.push(...plan.warnings);
    if (isReplace(plan.action)) {
      const paths = plan.requiresReplace.map((p) => p.toString()).join(", ");
      return report({ ...base, id, outcome: ImportOnConflictOutcome.WouldReplace, detail: `${address}: the existing object ${JSON.stringify(id)} was not adopted: it differs from the configuration where a change forces replacement (${paths === "" ? plan.replaceReason : paths}), and a conflict is never resolved by replacing` });
    }
    if (plan.action === PlanAction.NoOp) {
      report({ ...base, id, outcome: ImportOnConflictOutcome.Adopted, detail: `${address}: adopted the existing object ${JSON.stringify(id)}; it already matches the configuration` });
      return { object: imported.object, id, warnings };
    }

    const applied = await applyInstance(target, plan, { config });
    warnings.push(...applied.warnings);
    const object = applied.object ?? imported.object;
    if (applied.error !== undefined) {
      report({ ...base, id, outcome: ImportOnConflictOutcome.AdoptedUpdateFailed, detail: `${address}: adopted ${JSON.stringify(id)}, but the remaining update failed: ${messageOf(applied.error)}` });
      return { object, id, warnings, error: applied.error };
    }
    report({ ...base, id, outcome: ImportOnConflictOutcome.Adopted, detail: `${address}: adopted the existing object ${JSON.stringify(id)} and updated it to the configuration` });
    return { object, id, warnings };
  };
}

/**
 * Whether a create's failure is an "already exists" conflict under `options` (see
 * {@link createImportOnConflict}): the provider's error diagnostics matching the type's rule
 * or, unless `genericPatterns` is false, {@link ALREADY_EXISTS_PATTERNS}.
 */
export function isAlreadyExists(typeName: string, error: unknown, options: Pick<ImportOnConflictOptions, "conflictRules" | "genericPatterns"> = {}): boolean {
  if (!isProviderError(error) || error.code !== "diagnostics") return false;
  const diags = error.detail.diagnostics.filter((d) => d.severity === "error");
  if (diags.length === 0) return false;
  const texts = diags.map((d) => `${d.summary}\n${d.detail ?? ""}`);
  const rule = options.conflictRules?.[typeName] ?? DEFAULT_CONFLICT_RULES[typeName];
  if (rule !== undefined && (rule instanceof RegExp ? texts.some((t) => rule.test(t)) : rule(diags, error))) return true;
  if (options.genericPatterns === false) return false;
  return texts.some((t) => ALREADY_EXISTS_PATTERNS.some((p) => p.test(t)));
}

function deriveId(rule: IdRule | undefined, input: IdRuleInput): string | undefined {
  if (typeof rule === "function") {
    const id = rule(input);
    return typeof id === "string" && id !== "" ? id : undefined;
  }
  if (typeof rule === "string") {
    assertAttribute(input.config, rule, input.typeName, "id rule");
    const v = configuredOrPlanned(rule, input.config, input.planned);
    return v === undefined ? undefined : knownString(v);
  }
  return input.planned.hasAttr("id") ? knownString(input.planned.getAttr("id")) : undefined;
}

/** The identifying attributes and, for the `id` fallback, the value expected. */
type Identity = readonly { readonly attribute: string; readonly expectedId?: string }[];

function identityOf(typeName: string, rule: IdRule | undefined, id: string, options: ImportOnConflictOptions): Identity {
  const explicit = options.identity?.[typeName] ?? (typeof rule === "function" ? undefined : DEFAULT_IDENTITY[typeName]);
  if (explicit !== undefined) return explicit.map((attribute) => ({ attribute }));
  if (typeof rule === "string") return [{ attribute: rule }];
  return [{ attribute: "id", expectedId: id }];
}

/** Why the existing object is not the configured one, or undefined when every identifying attribute matches. */
function identityMismatch(existing: Value, identity: Identity, config: Value, planned: Value, address: string): string | undefined {
  if (identity.length === 0) return "no identifying attributes are configured for the type, so the object cannot be confirmed";
  for (const { attribute, expectedId } of identity) {
    assertAttribute(existing, attribute, address, "identity attribute");
    const actual = existing.getAttr(attribute);
    if (expectedId !== undefined) {
      if (knownString(actual) !== expectedId) return `its ${attribute} is ${show(actual)}, not the import id ${JSON.stringify(expectedId)}`;
      continue;
    }
    const wanted = configuredOrPlanned(attribute, config, planned);
    if (wanted === undefined || wanted.isNull() || !wanted.isWhollyKnown()) {
      return `its ${attribute} cannot be confirmed: the configuration's value is ${wanted === undefined || wanted.isNull() ? "null" : "not known"}`;
    }
    const eq = actual.equals(wanted).unmark();
    if (!(eq.isKnown() && eq.asBool())) {
      // A sensitive configured value hides the existing object's value too (it may be as secret).
      if (isMarked(wanted) || isMarked(actual)) return `its ${attribute} differs from the configuration's (sensitive value)`;
      return `its ${attribute} is ${show(actual)}, the configuration's is ${show(wanted)}`;
    }
  }
  return undefined;
}

/** The configured value of a top-level attribute, else the planned one (when the configuration leaves it null); undefined when neither has it. */
function configuredOrPlanned(attribute: string, config: Value, planned: Value): Value | undefined {
  const c = config.isNull() || !config.isKnown() || !config.hasAttr(attribute) ? undefined : config.getAttr(attribute);
  if (c !== undefined && !c.isNull()) return c;
  if (!planned.isNull() && planned.isKnown() && planned.hasAttr(attribute)) return planned.getAttr(attribute);
  return c;
}

function assertAttribute(v: Value, attribute: string, where: string, what: string): void {
  if (!v.hasAttr(attribute)) throw new EngineError(EngineErrorCode.InvalidArgument, `import on conflict: the ${what} ${JSON.stringify(attribute)} is not an attribute of ${where}`);
}

/** The known string `id` attribute of an object, if it has one. */
function idOf(v: Value): string | undefined {
  if (v.isNull() || !v.isKnown() || !v.hasAttr("id")) return undefined;
  return knownString(v.getAttr("id"));
}

function knownString(v: Value): string | undefined {
  if (!v.isKnown() || v.isNull() || v.type.kind !== "string") return undefined;
  const s = v.asString();
  return s === "" ? undefined : s;
}

function isMarked(v: Value): boolean {
  return v.unmarkDeep().paths.length > 0;
}

function show(v: Value): string {
  if (isMarked(v)) return "(sensitive value)";
  return v.isNull() ? "null" : v.isKnown() && v.type.kind === "string" ? JSON.stringify(v.asString()) : v.toString();
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
