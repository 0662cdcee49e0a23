import { unknownVal, type Value } from "@magma/cty";
import { ephemeralResourceSchema, errorDiag, isEphemeralResourceOpener, type Diag, type EphemeralResourceOpener } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { InstanceTarget } from "../instance/instance-target.js";

/** An ephemeral resource instance was opened or closed, or its open or close started (Terraform's `ephemeral_op_start`/`ephemeral_op_complete`). */
export interface EphemeralOpEvent {
  /** `start` before the call, `complete` after it succeeded. */
  readonly phase: "start" | "complete";
  /** The instance address, e.g. `ephemeral.aws_ssm_parameter.p`. */
  readonly address: string;
  /** What was done. */
  readonly action: "open" | "renew" | "close";
  /** With `complete`: whole seconds the call took. */
  readonly elapsedSeconds?: number;
}

/** What {@link EphemeralResources.open} gives back. */
export type EphemeralOpenOutcome =
  | {
      /** Opened: the provider's result. */
      readonly kind: "opened";
      readonly value: Value;
      readonly warnings: readonly Diag[];
    }
  | {
      /** Not opened: the configuration is not wholly known yet, so the value is unknown (Terraform does the same). */
      readonly kind: "unknown";
      readonly value: Value;
    };

/** An instance a walk opened: what {@link EphemeralResources.reopenAll} opens again. */
interface OpenedRecord {
  readonly target: InstanceTarget;
  readonly address: string;
  readonly typeName: string;
  readonly config: Value;
}

interface OpenInstance {
  readonly address: string;
  readonly typeName: string;
  readonly opener: EphemeralResourceOpener;
  readonly target: InstanceTarget;
  private: Uint8Array;
  timer: ReturnType<typeof setTimeout> | undefined;
  renewing: Promise<void> | undefined;
  /** Set once its close is decided: no renewal is scheduled after it. */
  closing: boolean;
}

/**
 * The ephemeral resource instances one walk (a plan or an apply) has open: each opened when
 * the walk reaches it, renewed at the provider's `renewAt` while the walk runs, and closed —
 * in reverse order of opening — by {@link EphemeralResources.closeAll}, which the walk calls
 * when it ends, however it ends (errors, interrupts). Values and private data are held in
 * memory only: never in state, plan files or events.
 */
export class EphemeralResources {
  readonly #open: OpenInstance[] = [];
  readonly #onEvent: (e: EphemeralOpEvent) => void;
  readonly #renewFailures: Diag[] = [];
  readonly #opened: OpenedRecord[] = [];
  #closed = false;

  /** @param onEvent told of every open and close (for the UI's `Opening...` / `Closing...` lines). */
  constructor(onEvent: (e: EphemeralOpEvent) => void = () => undefined) {
    this.#onEvent = onEvent;
  }

  /** How many instances are open now. */
  get openCount(): number {
    return this.#open.length;
  }

  /**
   * Opens an instance: validates its configuration with the provider, then opens it. A
   * configuration that is not wholly known is not sent: the value is unknown, as in
   * Terraform.
   *
   * @throws EngineError `invalid_argument` when the provider cannot open ephemeral resources
   * or the registry is closed, `invalid_provider_response` for a deferral; the provider's
   * `ProviderError` when validation or the open fails.
   */
  async open(target: InstanceTarget, address: string, typeName: string, config: Value): Promise<EphemeralOpenOutcome> {
    if (this.#closed) throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: the walk's ephemeral resources are already closed`);
    const entry = ephemeralResourceSchema(target.schema, typeName);
    if (!config.isWhollyKnown()) return { kind: "unknown", value: unknownVal(entry.type) };
    const opener = target.provider;
    if (!isEphemeralResourceOpener(opener)) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: the provider cannot open ephemeral resources`);
    }
    const options = target.signal !== undefined ? { signal: target.signal } : {};
    const validated = await opener.validateEphemeralResourceConfig(typeName, config, options);
    this.#onEvent({ phase: "start", address, action: "open" });
    const started = Date.now();
    const r = await opener.openEphemeralResource(typeName, config, options);
    if (r.deferred !== undefined) {
      // Nothing was promised that could be closed; say so rather than carry a half-open object.
      throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the open (${r.deferred.reason}) though deferral was not allowed`);
    }
    const inst: OpenInstance = { address, typeName, opener, target, private: r.private, timer: undefined, renewing: undefined, closing: false };
    this.#open.push(inst);
    this.#opened.push({ target, address, typeName, config });
    this.#onEvent({ phase: "complete", address, action: "open", elapsedSeconds: Math.floor((Date.now() - started) / 1000) });
    this.#schedule(inst, r.renewAt);
    return { kind: "opened", value: r.result, warnings: [...validated.warnings, ...r.warnings] };
  }

  /** Renewal failures seen so far (as Terraform, they are reported when the walk ends). */
  get renewFailures(): readonly Diag[] {
    return this.#renewFailures;
  }

  #schedule(inst: OpenInstance, renewAt: Date | undefined): void {
    if (renewAt === undefined || this.#closed || inst.closing) return;
    const delay = Math.max(0, renewAt.getTime() - Date.now());
    inst.timer = setTimeout(() => {
      inst.timer = undefined;
      inst.renewing = this.#renew(inst);
    }, Math.min(delay, 2_147_483_647));
    inst.timer.unref?.();
  }

  async #renew(inst: OpenInstance): Promise<void> {
    const options = inst.target.signal !== undefined ? { signal: inst.target.signal } : {};
    try {
      const r = await inst.opener.renewEphemeralResource(inst.typeName, inst.private, options);
      inst.private = r.private;
      this.#schedule(inst, r.renewAt);
    } catch (e) {
      this.#renewFailures.push(errorDiag("Failed to renew ephemeral resource", `${inst.address}: ${e instanceof Error ? e.message : String(e)}`));
    } finally {
      inst.renewing = undefined;
    }
  }

  /**
   * Closes every open instance, most recently opened first, once (later calls do nothing):
   * renewals are stopped first, and a failure to close one does not keep the others open.
   * Resolves with the failures as error diagnostics ("Failed to close ephemeral resource").
   */
  async closeAll(): Promise<Diag[]> {
    if (this.#closed) return [];
    this.#closed = true;
    const failures = await this.#close(this.#open.slice());
    return [...this.#renewFailures, ...failures];
  }

  /**
   * Opens the instances this registry opened again (those whose address `keep` accepts), in
   * the same order and with the same configurations, in a new registry with the same events,
   * then closes them all (most recent first): a second walk over the same ephemeral resources,
   * as terraform's destroy plan makes after its refresh walk. Resolves with the failures
   * (opens and closes) as error diagnostics; an open that fails stops the walk (what was
   * opened is closed).
   */
  async reopenAll(keep: (address: string) => boolean = () => true): Promise<Diag[]> {
    const again = new EphemeralResources(this.#onEvent);
    const failures: Diag[] = [];
    for (const r of this.#opened.filter((x) => keep(x.address))) {
      try {
        const out = await again.open(r.target, r.address, r.typeName, r.config);
        if (out.kind === "opened") failures.push(...out.warnings.filter((w) => w.severity === "error"));
      } catch (e) {
        failures.push(errorDiag("Failed to open ephemeral resource", `${r.address}: ${e instanceof Error ? e.message : String(e)}`));
        break;
      }
    }
    return [...failures, ...(await again.closeAll())];
  }

  /**
   * Closes the open instances named (others stay open), most recently opened first, as a
   * walk does once nothing still needs them (Terraform's close node of an ephemeral
   * resource); instances not open are ignored. Resolves with the failures, as
   * {@link closeAll}.
   */
  async close(addresses: readonly string[]): Promise<Diag[]> {
    const wanted = new Set(addresses);
    return this.#close(this.#open.filter((i) => wanted.has(i.address)));
  }

  async #close(instances: OpenInstance[]): Promise<Diag[]> {
    const failures: Diag[] = [];
    // Taken out of the open list first, so that a concurrent closeAll does not close them twice.
    for (const inst of instances) {
      this.#open.splice(this.#open.indexOf(inst), 1);
      inst.closing = true;
    }
    for (const inst of instances.slice().reverse()) {
      if (inst.timer !== undefined) clearTimeout(inst.timer);
      if (inst.renewing !== undefined) await inst.renewing;
    }
    for (const inst of instances.slice().reverse()) {
      this.#onEvent({ phase: "start", address: inst.address, action: "close" });
      const started = Date.now();
      try {
        // No signal: a close must run even when the walk was interrupted.
        await inst.opener.closeEphemeralResource(inst.typeName, inst.private);
        this.#onEvent({ phase: "complete", address: inst.address, action: "close", elapsedSeconds: Math.floor((Date.now() - started) / 1000) });
      } catch (e) {
        failures.push(errorDiag("Failed to close ephemeral resource", `${inst.address}: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
    return failures;
  }
}
