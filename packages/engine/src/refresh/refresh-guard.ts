import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { RefreshOutcome } from "./refresh-outcome.js";

/**
 * The thresholds of the refresh guard ({@link judgeRefresh}). Every field is optional; the
 * defaults are {@link DEFAULT_REFRESH_GUARD}.
 *
 * Why a guard at all: Terraform has none — a refresh that reads every object as "gone"
 * plans to create every object again. That is right for a real deletion and disastrous for
 * an outage: an API that answers "not found" for everything (wrong account, region or
 * endpoint; an expired role that the API reports as 404; a half-up service) makes all
 * objects vanish at once, and the next apply duplicates them (the Rust original once read
 * 661 objects as gone in one refresh). Real deletions outside the tool are, in practice,
 * targeted: one or a few objects. So the guard refuses the refresh results when the
 * picture looks like an outage, and the user can override it when the losses are real.
 */
export interface RefreshGuardOptions {
  /**
   * Accept a suspect refresh (mass vanishing, most reads failed) as it is: the judgement
   * is then `safe`, still with verdict `suspect` and its findings. It never makes a refresh
   * in which every read failed safe: there are no answers to believe.
   */
  readonly allowMassLoss?: boolean;
  /**
   * Most reads failed: suspect when `failed / total` is above this share (default `0.5`,
   * i.e. strictly more than half). Failed reads lose nothing by themselves (the objects keep
   * their prior state), but when most of them fail the few answers that came back are from a
   * provider in trouble and are not trusted either.
   */
  readonly maxFailedShare?: number;
  /**
   * Most objects gone: suspect when, among the objects the provider answered for (in-sync,
   * changed or gone), `gone / answered` is at least this share (default `0.5`) …
   */
  readonly maxGoneShare?: number;
  /**
   * … provided at least this many objects were answered for (default `5`): with fewer, a
   * share says nothing (one of two objects deleted by hand is 50%).
   */
  readonly minObjectsForShare?: number;
  /**
   * Everything gone: suspect when every object answered for is gone and there are at least
   * this many of them (default `2`). All objects vanishing together is the signature of a
   * wrong account/region/endpoint, whatever the count; a lone object deleted by hand (one
   * of one) passes, as it cannot be told from a targeted deletion.
   */
  readonly minAllGone?: number;
  /**
   * Many gone at once: suspect when more than this many objects are gone (default `25`),
   * whatever the share: it bounds how many objects one refresh can send back to "create"
   * (and so how many duplicates an outage can cause) in a large state.
   */
  readonly maxGone?: number;
}

/** The default thresholds of {@link RefreshGuardOptions}. */
export const DEFAULT_REFRESH_GUARD = Object.freeze({
  allowMassLoss: false,
  maxFailedShare: 0.5,
  maxGoneShare: 0.5,
  minObjectsForShare: 5,
  minAllGone: 2,
  maxGone: 25,
} as const);

/** What a refresh as a whole amounts to. */
export const RefreshVerdict = {
  /** Every object was read and none changed (also: nothing to refresh). */
  InSync: "in-sync",
  /** Every object was read; some changed or are gone, within the thresholds. */
  Drifted: "drifted",
  /** Some reads failed (not most); the others are within the thresholds. The failures are still errors to report, as Terraform does. */
  Incomplete: "incomplete",
  /** Every read failed: nothing is known about the remote objects. Never "in sync". */
  Unknown: "unknown",
  /** The refresh looks like an outage (see {@link RefreshSuspicion}). */
  Suspect: "suspect",
} as const;

/** One of the {@link RefreshVerdict} values. */
export type RefreshVerdict = (typeof RefreshVerdict)[keyof typeof RefreshVerdict];

/** Why a refresh is suspect (or unknown). */
export const RefreshSuspicion = {
  /** Every read failed. */
  AllFailed: "all-failed",
  /** More than `maxFailedShare` of the reads failed. */
  MostFailed: "most-failed",
  /** Every object answered for is gone (at least `minAllGone`). */
  AllGone: "all-gone",
  /** At least `maxGoneShare` of the objects answered for are gone (of at least `minObjectsForShare`). */
  MostGone: "most-gone",
  /** More than `maxGone` objects are gone. */
  ManyGone: "many-gone",
} as const;

/** One of the {@link RefreshSuspicion} values. */
export type RefreshSuspicion = (typeof RefreshSuspicion)[keyof typeof RefreshSuspicion];

/** How many objects ended each way. */
export interface RefreshCounts {
  /** All objects judged. */
  readonly total: number;
  /** Read, unchanged. */
  readonly inSync: number;
  /** Read, drifted. */
  readonly changed: number;
  /** The provider says they no longer exist. */
  readonly gone: number;
  /** The read failed. */
  readonly failed: number;
}

/** One reason a refresh is suspect, for all objects or for one provider configuration's. */
export interface RefreshFinding {
  /** What was found. */
  readonly suspicion: RefreshSuspicion;
  /** The provider configuration address the finding is about; undefined for all objects. */
  readonly provider?: string;
  /** The counts of that scope. */
  readonly counts: RefreshCounts;
  /** Up to five addresses that illustrate it (gone objects, or failed ones), in input order. */
  readonly examples: readonly string[];
}

/** The judgement of {@link judgeRefresh}. */
export interface RefreshJudgement {
  /** What the refresh amounts to. */
  readonly verdict: RefreshVerdict;
  /**
   * Whether the refresh's results may be used and written: false for `unknown`, and for
   * `suspect` unless `allowMassLoss` was given.
   */
  readonly safe: boolean;
  /** Whether `allowMassLoss` turned a suspect refresh into a safe one. */
  readonly overridden: boolean;
  /** The counts over all objects. */
  readonly counts: RefreshCounts;
  /** The reasons for `suspect` / `unknown` (empty otherwise). */
  readonly findings: readonly RefreshFinding[];
  /** One paragraph for the user: the verdict, the counts, example addresses and what to do. */
  readonly message: string;
}

const EXAMPLES = 5;

/**
 * Judges the outcomes of a refresh (the reads of every object in state, before a plan or in
 * a refresh-only run) and says whether its results can be trusted. Pure: it reads the
 * outcomes and nothing else, and never throws for valid options.
 *
 * The rules (thresholds in {@link RefreshGuardOptions}, defaults {@link DEFAULT_REFRESH_GUARD}):
 *
 * - no objects: `in-sync`;
 * - every read failed: `unknown`, never safe — nothing is known, and nothing may be
 *   reported as "in sync" or written;
 * - suspect, not safe unless `allowMassLoss`: more than half of the reads failed; or,
 *   among the objects the provider answered for, all gone (≥ 2), at least half gone (of ≥ 5),
 *   or more than 25 gone. The "gone" rules are applied to all objects and, when outcomes
 *   name their `provider`, to each provider configuration's objects on their own; deposed
 *   objects (`deposed`) are left out of them (they are to be destroyed anyway);
 * - otherwise `incomplete` (some reads failed — still errors to report, as Terraform does),
 *   `drifted` (some changed or gone) or `in-sync`.
 *
 * A targeted real deletion — one object gone, the others read — is never suspect under the
 * defaults, whatever the number of objects.
 *
 * How to use it (the planner): refresh every object, collecting a {@link RefreshOutcome}
 * per object, *without* writing anything; then `assertRefreshSafe(outcomes, options)` (or
 * check `judgeRefresh(...).safe`) before using the refreshed objects in the plan or writing
 * them in a refresh-only run. A refused refresh leaves state untouched.
 *
 * @throws {@link EngineError} `invalid_argument` for options out of range (a share outside
 * [0, 1], a count that is not a non-negative integer) or an outcome whose `result` is none
 * of the four.
 */
export function judgeRefresh(outcomes: readonly RefreshOutcome[], options: RefreshGuardOptions = {}): RefreshJudgement {
  const o = resolveOptions(options);
  const counts = countOutcomes(outcomes);
  const findings: RefreshFinding[] = [];

  if (counts.total > 0 && counts.failed === counts.total) {
    findings.push({ suspicion: RefreshSuspicion.AllFailed, counts, examples: examplesOf(outcomes, "failed") });
  } else if (counts.failed / Math.max(counts.total, 1) > o.maxFailedShare) {
    findings.push({ suspicion: RefreshSuspicion.MostFailed, counts, examples: examplesOf(outcomes, "failed") });
  }
  // A deposed object is destroyed anyway: its being gone loses nothing (see RefreshOutcome.deposed).
  const current = outcomes.filter((x) => x.deposed !== true);
  const all = goneFinding(current, countOutcomes(current), undefined, o);
  if (all !== undefined) findings.push(all);
  for (const [provider, group] of byProvider(current)) {
    const f = goneFinding(group, countOutcomes(group), provider, o);
    // A provider holding every object says nothing the whole did not.
    if (f !== undefined && group.length < current.length) findings.push(f);
  }

  let verdict: RefreshVerdict;
  if (counts.total > 0 && counts.failed === counts.total) verdict = RefreshVerdict.Unknown;
  else if (findings.length > 0) verdict = RefreshVerdict.Suspect;
  else if (counts.failed > 0) verdict = RefreshVerdict.Incomplete;
  else if (counts.gone + counts.changed > 0) verdict = RefreshVerdict.Drifted;
  else verdict = RefreshVerdict.InSync;

  const safe = verdict === RefreshVerdict.Unknown ? false : verdict === RefreshVerdict.Suspect ? o.allowMassLoss : true;
  const overridden = verdict === RefreshVerdict.Suspect && o.allowMassLoss;
  return { verdict, safe, overridden, counts, findings, message: describe(verdict, counts, findings, overridden, outcomes) };
}

/**
 * {@link judgeRefresh}, then refuses an unsafe refresh: the call the planner makes between
 * refreshing and planning (and a refresh-only run before writing state).
 *
 * @returns the judgement, when safe (its `verdict` may still be `suspect` with `overridden`).
 * @throws {@link EngineError} `refresh_suspect` when the refresh is `unknown`, or `suspect`
 * without `allowMassLoss`; the message gives the counts, example addresses and the way out.
 * `invalid_argument` for bad options.
 */
export function assertRefreshSafe(outcomes: readonly RefreshOutcome[], options: RefreshGuardOptions = {}): RefreshJudgement {
  const j = judgeRefresh(outcomes, options);
  if (!j.safe) throw new EngineError(EngineErrorCode.RefreshSuspect, j.message);
  return j;
}

type Resolved = { readonly [K in keyof RefreshGuardOptions]-?: NonNullable<RefreshGuardOptions[K]> };

function resolveOptions(options: RefreshGuardOptions): Resolved {
  const o: Resolved = {
    allowMassLoss: options.allowMassLoss ?? DEFAULT_REFRESH_GUARD.allowMassLoss,
    maxFailedShare: options.maxFailedShare ?? DEFAULT_REFRESH_GUARD.maxFailedShare,
    maxGoneShare: options.maxGoneShare ?? DEFAULT_REFRESH_GUARD.maxGoneShare,
    minObjectsForShare: options.minObjectsForShare ?? DEFAULT_REFRESH_GUARD.minObjectsForShare,
    minAllGone: options.minAllGone ?? DEFAULT_REFRESH_GUARD.minAllGone,
    maxGone: options.maxGone ?? DEFAULT_REFRESH_GUARD.maxGone,
  };
  for (const k of ["maxFailedShare", "maxGoneShare"] as const) {
    const v = o[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `refresh guard: ${k} must be a share between 0 and 1, got ${String(v)}`);
    }
  }
  for (const k of ["minObjectsForShare", "minAllGone", "maxGone"] as const) {
    const v = o[k];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `refresh guard: ${k} must be a non-negative integer, got ${String(v)}`);
    }
  }
  if (typeof o.allowMassLoss !== "boolean") {
    throw new EngineError(EngineErrorCode.InvalidArgument, `refresh guard: allowMassLoss must be a boolean, got ${String(o.allowMassLoss as unknown)}`);
  }
  return o;
}

function countOutcomes(outcomes: readonly RefreshOutcome[]): RefreshCounts {
  let inSync = 0;
  let changed = 0;
  let gone = 0;
  let failed = 0;
  for (const x of outcomes) {
    switch (x.result) {
      case "in-sync":
        inSync++;
        break;
      case "changed":
        changed++;
        break;
      case "gone":
        gone++;
        break;
      case "failed":
        failed++;
        break;
      default:
        throw new EngineError(EngineErrorCode.InvalidArgument, `refresh guard: ${x.address}: unknown refresh result ${JSON.stringify(x.result as unknown)}`);
    }
  }
  return { total: outcomes.length, inSync, changed, gone, failed };
}

function goneFinding(outcomes: readonly RefreshOutcome[], c: RefreshCounts, provider: string | undefined, o: Resolved): RefreshFinding | undefined {
  const answered = c.total - c.failed;
  let suspicion: RefreshSuspicion | undefined;
  if (c.gone > 0 && c.gone === answered && answered >= o.minAllGone) suspicion = RefreshSuspicion.AllGone;
  else if (answered > 0 && answered >= o.minObjectsForShare && c.gone / answered >= o.maxGoneShare && c.gone > 0) suspicion = RefreshSuspicion.MostGone;
  else if (c.gone > o.maxGone) suspicion = RefreshSuspicion.ManyGone;
  if (suspicion === undefined) return undefined;
  const f = { suspicion, counts: c, examples: examplesOf(outcomes, "gone") };
  return provider === undefined ? f : { ...f, provider };
}

function byProvider(outcomes: readonly RefreshOutcome[]): Map<string, RefreshOutcome[]> {
  const m = new Map<string, RefreshOutcome[]>();
  for (const x of outcomes) {
    if (x.provider === undefined) continue;
    const g = m.get(x.provider);
    if (g === undefined) m.set(x.provider, [x]);
    else g.push(x);
  }
  return m;
}

function examplesOf(outcomes: readonly RefreshOutcome[], result: RefreshOutcome["result"]): string[] {
  const out: string[] = [];
  for (const x of outcomes) {
    if (x.result !== result) continue;
    out.push(x.address);
    if (out.length === EXAMPLES) break;
  }
  return out;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function tally(c: RefreshCounts): string {
  return `${plural(c.total, "object")}: ${c.inSync} in sync, ${c.changed} changed, ${c.gone} gone, ${c.failed} failed`;
}

function errorText(e: unknown): string {
  let s: string;
  if (e instanceof Error) s = e.message;
  else if (typeof e === "string") s = e;
  else {
    try {
      s = JSON.stringify(e) ?? String(e);
    } catch {
      s = String(e); // cyclic or otherwise unserialisable
    }
  }
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

function findingText(f: RefreshFinding): string {
  const c = f.counts;
  const answered = c.total - c.failed;
  const scope = f.provider === undefined ? "" : ` (provider ${f.provider})`;
  const more = (n: number): string => (n > f.examples.length ? `, … (${n - f.examples.length} more)` : "");
  switch (f.suspicion) {
    case RefreshSuspicion.AllFailed:
      return `every read failed${scope}: ${c.failed} of ${c.total} (e.g. ${f.examples.join(", ")}${more(c.failed)})`;
    case RefreshSuspicion.MostFailed:
      return `most reads failed${scope}: ${c.failed} of ${c.total} (e.g. ${f.examples.join(", ")}${more(c.failed)})`;
    case RefreshSuspicion.AllGone:
      return `every object the provider answered for is gone${scope}: ${c.gone} of ${answered} (e.g. ${f.examples.join(", ")}${more(c.gone)})`;
    case RefreshSuspicion.MostGone:
      return `most objects are gone${scope}: ${c.gone} of ${answered} answered for (e.g. ${f.examples.join(", ")}${more(c.gone)})`;
    case RefreshSuspicion.ManyGone:
      return `many objects are gone at once${scope}: ${c.gone} of ${answered} answered for (e.g. ${f.examples.join(", ")}${more(c.gone)})`;
  }
}

function describe(verdict: RefreshVerdict, counts: RefreshCounts, findings: readonly RefreshFinding[], overridden: boolean, outcomes: readonly RefreshOutcome[]): string {
  const firstFailure = outcomes.find((x) => x.result === "failed");
  const failure = firstFailure === undefined ? "" : ` First failure: ${firstFailure.address}: ${errorText(firstFailure.error)}.`;
  switch (verdict) {
    case RefreshVerdict.InSync:
      return `Refresh in sync (${tally(counts)}).`;
    case RefreshVerdict.Drifted:
      return `Refresh found drift (${tally(counts)}).`;
    case RefreshVerdict.Incomplete:
      return `Refresh incomplete (${tally(counts)}).${failure}`;
    case RefreshVerdict.Unknown:
      return (
        `Refresh unknown: every read failed (${tally(counts)}). Nothing is known about the remote objects; ` +
        `the refresh is not "in sync" and state was not changed. ${findings.map(findingText).join("; ")}.${failure} ` +
        `Check the provider's credentials, region and endpoint, then retry.`
      );
    case RefreshVerdict.Suspect: {
      const what = findings.map(findingText).join("; ");
      if (overridden) return `Refresh suspect, accepted because mass loss was allowed (${tally(counts)}): ${what}.${failure}`;
      return (
        `Refresh refused as suspect (${tally(counts)}): ${what}. This looks like an outage or a wrong ` +
        `account, region or endpoint rather than real changes, so its results were not used and state was not changed.${failure} ` +
        `Check the provider configuration and retry; if the objects really are gone, allow mass loss (allowMassLoss) to accept it.`
      );
    }
  }
}
