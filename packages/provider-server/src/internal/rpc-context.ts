import { formatErrorPath, isPathError, type Path, type Type, type Value } from "@magma/cty";
import {
  diagsToProto,
  dynamicValueFromProto,
  dynamicValueToProto,
  type ProtoDiagnostic,
  type ProtoDynamicValue,
} from "@magma/tfplugin";
import {
  errorDiag,
  isEphemeralResourceOpener,
  isProviderError,
  type EphemeralResourceOpener,
  type Diag,
  type Provider,
  type ProviderSchema,
  type SchemaEntry,
} from "@magma/provider-api";
import { createFunctionHandlers, type FunctionHandlers } from "./function-service.js";
import type { HclogLogger } from "./hclog.js";

/** `ClientCapabilities` as the handlers read it (the same in tfplugin5 and tfplugin6). @internal */
export interface ClientCaps {
  deferralAllowed: boolean;
}

/** A received `DynamicValue`. @internal */
export interface DynamicValueIn {
  msgpack: Uint8Array;
  json: Uint8Array;
}

/** What the server supports: destroys are planned (the contract plans them), and the schema is static. @internal */
export const SERVER_CAPABILITIES = {
  planDestroy: true,
  getProviderSchemaOptional: true,
  moveResourceState: false,
  generateResourceConfig: false,
};

/**
 * What every RPC handler of one served provider shares: the provider, its schema (asked
 * once), the StopProvider cancellation, request tracing, and the guard that turns a failure
 * into diagnostics.
 *
 * @internal
 */
export interface RpcContext {
  readonly provider: Provider;
  readonly functions: FunctionHandlers;
  /** The provider's schema, asked once (again after a failure). */
  schema(): Promise<ProviderSchema>;
  /** The signal of one call: the client's cancellation or StopProvider, whichever fires first. */
  callSignal(client: AbortSignal): AbortSignal;
  /** Logs a received request (debug). */
  trace(rpc: string, fields?: Record<string, unknown>): void;
  /** Runs a handler body; any thrown error becomes diagnostics on the response built by `onError`. */
  guard<R>(
    rpc: string,
    body: () => Promise<R>,
    onError: (diags: ProtoDiagnostic[], e: unknown) => R,
  ): Promise<R>;
  /** The schema of a resource type, or a RequestProblem naming it. */
  resourceEntry(typeName: string): Promise<SchemaEntry>;
  /** The schema of a data source, or a RequestProblem naming it. */
  dataSourceEntry(typeName: string): Promise<SchemaEntry>;
  /**
   * The provider as an {@link EphemeralResourceOpener} and the schema of one of its
   * ephemeral resource types, or a RequestProblem naming the type.
   */
  ephemeralEntry(typeName: string): Promise<{ readonly opener: EphemeralResourceOpener; readonly entry: SchemaEntry }>;
  /** The decoded provider_meta, when the schema has one and the request carries it. */
  meta(dv: DynamicValueIn | undefined): Promise<{ providerMeta?: Value }>;
  /** Cancels every call in flight (StopProvider); later calls run normally. */
  stopAll(): void;
}

/**
 * The ephemeral resource types the server advertises and answers: the schema's, when the
 * provider can open them (an {@link EphemeralResourceOpener}); none otherwise, so that
 * Terraform never sends an RPC the provider cannot answer.
 *
 * @internal
 */
export function servedEphemeralResources(schema: ProviderSchema, provider?: Provider): ReadonlyMap<string, SchemaEntry> {
  if (provider !== undefined && !isEphemeralResourceOpener(provider)) return new Map();
  return schema.ephemeralResources ?? new Map();
}

/** @internal */
export function createRpcContext(provider: Provider, logger: HclogLogger): RpcContext {
  let schemaPromise: Promise<ProviderSchema> | undefined;
  let stop = new AbortController();

  const schema = (): Promise<ProviderSchema> => {
    schemaPromise ??= provider.getSchema();
    const p = schemaPromise;
    p.catch(() => {
      if (schemaPromise === p) schemaPromise = undefined;
    });
    return p;
  };
  const callSignal = (client: AbortSignal): AbortSignal => AbortSignal.any([client, stop.signal]);
  const trace = (rpc: string, fields: Record<string, unknown> = {}): void =>
    logger.log("debug", `Received request`, { tf_rpc: rpc, ...fields });

  return {
    provider,
    functions: createFunctionHandlers(provider, schema, callSignal, trace, logger),
    schema,
    callSignal,
    trace,
    async guard<R>(
      rpc: string,
      body: () => Promise<R>,
      onError: (diags: ProtoDiagnostic[], e: unknown) => R,
    ): Promise<R> {
      try {
        return await body();
      } catch (e) {
        const diags = diagsFromError(e);
        logger.log(hasError(diags) ? "warn" : "debug", `${rpc} returned errors`, {
          tf_rpc: rpc,
          error: e instanceof Error ? e.message : String(e),
        });
        return onError(diagsToProto(diags), e);
      }
    },
    async resourceEntry(typeName) {
      const s = await schema();
      const e = s.resources.get(typeName);
      if (e === undefined)
        throw new RequestProblem(
          errorDiag(
            "Unknown resource type",
            `The provider has no resource type ${JSON.stringify(typeName)}.`,
          ),
        );
      return e;
    },
    async dataSourceEntry(typeName) {
      const s = await schema();
      const e = s.dataSources.get(typeName);
      if (e === undefined)
        throw new RequestProblem(
          errorDiag(
            "Unknown data source",
            `The provider has no data source ${JSON.stringify(typeName)}.`,
          ),
        );
      return e;
    },
    async ephemeralEntry(typeName) {
      const e = isEphemeralResourceOpener(provider) ? servedEphemeralResources(await schema()).get(typeName) : undefined;
      if (e === undefined)
        throw new RequestProblem(
          errorDiag(
            "Unknown ephemeral resource type",
            `The provider has no ephemeral resource type ${JSON.stringify(typeName)}.`,
          ),
        );
      return { opener: provider as Provider & EphemeralResourceOpener, entry: e };
    },
    async meta(dv) {
      const s = await schema();
      if (s.providerMeta === undefined || dv === undefined) return {};
      return { providerMeta: decode(dv, s.providerMeta.type, "provider_meta") };
    },
    stopAll() {
      const old = stop;
      stop = new AbortController();
      old.abort(new Error("the provider was asked to stop (StopProvider)"));
    },
  };
}

/**
 * A problem with a request value: becomes one error diagnostic.
 *
 * @internal
 */
export class RequestProblem extends Error {
  readonly diag: Diag;
  constructor(diag: Diag) {
    super(diag.summary);
    this.diag = diag;
  }
}

/** Decodes a request value with `type`; a value that does not fit is a RequestProblem. @internal */
export function decode(dv: DynamicValueIn | undefined, type: Type, what: string): Value {
  try {
    return dynamicValueFromProto(dv, type);
  } catch (e) {
    if (isPathError(e)) {
      const path: Path = e.path;
      throw new RequestProblem(
        errorDiag(
          `Invalid ${what}`,
          `The ${what} does not fit the schema at ${what}${formatErrorPath(path)}: ${e.reason}`,
          path.isRoot() ? undefined : path,
        ),
      );
    }
    throw e;
  }
}

/** Encodes a response value with `type`. @internal */
export function encode(v: Value, type: Type): ProtoDynamicValue {
  return dynamicValueToProto(v, type);
}

function hasError(diags: readonly Diag[]): boolean {
  return diags.some((d) => d.severity === "error");
}

const SUMMARY: Record<string, string> = {
  not_configured: "Provider not configured",
  unknown_type: "Unknown type",
  schema: "Invalid value",
  no_new_state: "Provider returned no new state",
  canceled: "Operation canceled",
  deadline_exceeded: "Operation timed out",
  invalid_response: "Provider error",
  transport: "Provider error",
};

/**
 * The diagnostics a failed contract call becomes: a `diagnostics` or `partially_applied`
 * error gives its own diagnostics; any other `ProviderError` one error diagnostic with its
 * message (and path, for `schema`); anything else an internal-error diagnostic.
 */
function diagsFromError(e: unknown): Diag[] {
  if (e instanceof RequestProblem) return [e.diag];
  if (isProviderError(e)) {
    switch (e.code) {
      case "diagnostics":
      case "partially_applied":
        return [...e.detail.diagnostics];
      case "schema": {
        const p = e.detail.path;
        return [
          errorDiag(
            SUMMARY["schema"]!,
            e.rawMessage,
            p !== undefined && !p.isRoot() ? p : undefined,
          ),
        ];
      }
      default:
        return [errorDiag(SUMMARY[e.code] ?? "Provider error", e.rawMessage)];
    }
  }
  const message = e instanceof Error ? e.message : String(e);
  return [errorDiag("Unexpected error in the provider", message)];
}
