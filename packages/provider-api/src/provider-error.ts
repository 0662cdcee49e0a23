import type { Path, Value } from "@magma/cty";
import { formatDiag, type Diag } from "./diagnostic.js";

/**
 * The stable codes of {@link ProviderError}. Switch on `error.code`; the message text may
 * change between versions, the codes do not.
 */
export const ProviderErrorCode = {
  /** The connection to the provider failed (socket, HTTP/2, TLS, a gRPC status other than the ones below). */
  Transport: "transport",
  /** The provider reported error-severity diagnostics; they are all in the detail. */
  Diagnostics: "diagnostics",
  /** Apply returned neither a new state nor an error for a create or update. */
  NoNewState: "no_new_state",
  /** Apply failed part-way: errors came back together with a (non-null) new state that must be kept. */
  PartiallyApplied: "partially_applied",
  /** A schema is invalid, or a value does not fit its schema. */
  Schema: "schema",
  /** An operation other than `getSchema` was called before `configure`. */
  NotConfigured: "not_configured",
  /** A resource or data source type name that the provider's schema does not have. */
  UnknownType: "unknown_type",
  /** The provider process exited (crash, panic, kill). */
  PluginExited: "plugin_exited",
  /** The go-plugin handshake with the provider process failed. */
  HandshakeFailed: "handshake_failed",
  /** The provider speaks none of the protocol versions we offered. */
  ProtocolMismatch: "protocol_mismatch",
  /** The provider answered with something that breaks the protocol or the contract. */
  InvalidResponse: "invalid_response",
  /** The caller canceled the operation (its `AbortSignal` fired). */
  Canceled: "canceled",
  /** The operation ran out of time. */
  DeadlineExceeded: "deadline_exceeded",
  /**
   * The provider could not be found or started: no binary for the source address in any
   * plugin directory, or the file is missing or not executable.
   */
  ProviderNotFound: "provider_not_found",
  /**
   * A provider-defined function failed (tfplugin's `FunctionError`), or its arguments do not
   * fit its signature; the detail names the function and, when the problem is one
   * argument's, its index.
   */
  FunctionError: "function_error",
} as const;

/** One of the {@link ProviderErrorCode} values. */
export type ProviderErrorCode = (typeof ProviderErrorCode)[keyof typeof ProviderErrorCode];

/** The kinds of entry a provider schema has (resource, data source, function, ephemeral resource), as `unknown_type` errors name them. */
export type SchemaEntryKind = "resource" | "data_source" | "function" | "ephemeral_resource";

/**
 * @deprecated Renamed {@link SchemaEntryKind} (it is the kind of schema entry a type name
 * names); this alias goes in the next minor release.
 */
export type TypeNameKind = SchemaEntryKind;

/**
 * What a {@link ProviderError} carries besides its message; the shape depends on the
 * code, so `switch (detail.code)` (or `switch (error.code)` on an {@link AnyProviderError})
 * narrows it.
 */
export type ProviderErrorDetail =
  | {
      readonly code: "transport";
      /** The gRPC status name in snake_case (`unavailable`, `internal`, …), when the failure was a gRPC status. */
      readonly grpcCode?: string;
    }
  | { readonly code: "diagnostics"; readonly diagnostics: readonly Diag[] }
  | { readonly code: "no_new_state"; readonly typeName?: string }
  | {
      readonly code: "partially_applied";
      /** The new state the provider returned: keep it, the remote object exists in this shape. */
      readonly newState: Value;
      /** The private state returned with it. */
      readonly private: Uint8Array;
      /** Every diagnostic returned with it (errors and warnings). */
      readonly diagnostics: readonly Diag[];
    }
  | { readonly code: "schema"; readonly path?: Path }
  | { readonly code: "not_configured"; readonly operation: string }
  | { readonly code: "unknown_type"; readonly kind: SchemaEntryKind; readonly typeName: string }
  | {
      readonly code: "plugin_exited";
      /** The exit code, or `null` when a signal ended the process (or it is not known). */
      readonly exitCode: number | null;
      /** The signal name (`SIGKILL`), or `null`. */
      readonly signal: string | null;
      /** The last lines of the process's stderr (bounded). */
      readonly stderrTail: string;
      /** From the first `panic: ` / `fatal error: ` line to the end (bounded), if there was one. */
      readonly panicExcerpt: string | undefined;
    }
  | { readonly code: "handshake_failed"; readonly line?: string; readonly stderrTail?: string }
  | { readonly code: "protocol_mismatch"; readonly pluginVersion: number; readonly clientVersions: readonly number[] }
  | { readonly code: "invalid_response"; readonly operation?: string; readonly path?: Path }
  | { readonly code: "canceled" }
  | { readonly code: "deadline_exceeded"; readonly timeoutMs?: number }
  | {
      readonly code: "provider_not_found";
      /** The binary that could not be started, when one was named. */
      readonly binary?: string;
      /** The directories searched for a source address, in order. */
      readonly searched?: readonly string[];
    }
  | {
      readonly code: "function_error";
      /** The function's name (as declared in the schema's `functions`). */
      readonly functionName: string;
      /** What went wrong: the provider's `FunctionError.text`, or the argument check's reason. */
      readonly text: string;
      /** The 0-based index of the offending argument (tfplugin's `function_argument`), when the problem is one argument's. */
      readonly argument?: number;
    };

/** The detail type of one code. */
export type ProviderErrorDetailOf<C extends ProviderErrorCode> = Extract<ProviderErrorDetail, { readonly code: C }>;

const CODES: ReadonlySet<string> = new Set(Object.values(ProviderErrorCode));

/**
 * How a {@link Provider} call fails: one error class with a stable {@link ProviderErrorCode}
 * and a `detail` whose shape depends on the code.
 *
 * The message is `[code] text` so that logs show the category; `rawMessage` holds the text
 * alone and `cause` keeps the underlying error. Recognise it with {@link isProviderError},
 * which checks the shape rather than `instanceof` so that two copies of this package still
 * recognise each other's errors, and narrow it with `switch (e.code)`.
 *
 * Domain problems are not thrown: warnings come back on results, and error-severity
 * diagnostics become the code `diagnostics`.
 */
export class ProviderError<C extends ProviderErrorCode = ProviderErrorCode> extends Error {
  /** Always `"ProviderError"`. */
  override readonly name = "ProviderError" as const;
  /** What kind of failure this is. */
  readonly code: C;
  /** Code-specific data. */
  readonly detail: ProviderErrorDetailOf<C>;
  /** The message without the `[code] ` prefix. */
  readonly rawMessage: string;

  /** Makes an error from its detail (which names the code) and a message; `cause` is kept as `Error.cause`. */
  constructor(detail: ProviderErrorDetailOf<C>, message: string, options?: { cause?: unknown }) {
    super(`[${detail.code}] ${message}`, options);
    this.code = detail.code as C;
    this.detail = detail;
    this.rawMessage = message;
  }
}

/** A {@link ProviderError} of any code, as a union that `switch (e.code)` narrows. */
export type AnyProviderError = { [C in ProviderErrorCode]: ProviderError<C> }[ProviderErrorCode];

/**
 * Whether `x` is a {@link ProviderError}, by shape (name, a known code, a message and a
 * detail of the same code), not `instanceof`.
 */
export function isProviderError(x: unknown): x is AnyProviderError {
  if (typeof x !== "object" || x === null) return false;
  const e = x as { name?: unknown; code?: unknown; message?: unknown; detail?: unknown };
  if (e.name !== "ProviderError" || typeof e.code !== "string" || !CODES.has(e.code)) return false;
  if (typeof e.message !== "string") return false;
  const d = e.detail as { code?: unknown } | null | undefined;
  return typeof d === "object" && d !== null && d.code === e.code;
}

// ---------------------------------------------------------------------------------------
// Factories

/** A `transport` error; `grpcCode` is the gRPC status name in snake_case when there was one. */
export function transportError(message: string, options?: { grpcCode?: string; cause?: unknown }): ProviderError<"transport"> {
  const detail: { code: "transport"; grpcCode?: string } = { code: "transport" };
  if (options?.grpcCode !== undefined) detail.grpcCode = options.grpcCode;
  return new ProviderError(detail, message, causeOf(options));
}

/**
 * A `diagnostics` error carrying all of `diagnostics` (warnings included); the message
 * names the operation and lists the error summaries.
 */
export function diagnosticsError(diagnostics: readonly Diag[], operation?: string): ProviderError<"diagnostics"> {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const shown = (errors.length > 0 ? errors : diagnostics).map(formatDiag);
  const head = operation === undefined ? "provider returned errors" : `${operation} failed`;
  return new ProviderError({ code: "diagnostics", diagnostics: Object.freeze(diagnostics.slice()) }, `${head}: ${shown.join("; ")}`);
}

/** A `no_new_state` error: apply returned no state and no error for a create or update. */
export function noNewStateError(typeName?: string): ProviderError<"no_new_state"> {
  const detail: { code: "no_new_state"; typeName?: string } = { code: "no_new_state" };
  if (typeName !== undefined) detail.typeName = typeName;
  const what = typeName === undefined ? "apply" : `apply of ${typeName}`;
  return new ProviderError(detail, `${what} returned neither a new state nor an error`);
}

/** A `partially_applied` error: apply failed but returned a new state (with its private state and all diagnostics). */
export function partiallyAppliedError(newState: Value, privateState: Uint8Array, diagnostics: readonly Diag[], typeName?: string): ProviderError<"partially_applied"> {
  const errors = diagnostics.filter((d) => d.severity === "error").map(formatDiag);
  const what = typeName === undefined ? "apply" : `apply of ${typeName}`;
  return new ProviderError(
    { code: "partially_applied", newState, private: privateState, diagnostics: Object.freeze(diagnostics.slice()) },
    `${what} failed part-way; the returned state must be kept: ${errors.join("; ")}`,
  );
}

/** A `schema` error, optionally at a path inside the schema or the value. */
export function schemaError(message: string, options?: { path?: Path; cause?: unknown }): ProviderError<"schema"> {
  const detail: { code: "schema"; path?: Path } = { code: "schema" };
  if (options?.path !== undefined) detail.path = options.path;
  return new ProviderError(detail, message, causeOf(options));
}

/** A `not_configured` error naming the operation that was called before `configure`. */
export function notConfiguredError(operation: string): ProviderError<"not_configured"> {
  return new ProviderError({ code: "not_configured", operation }, `${operation} called before configure`);
}

/** An `unknown_type` error naming the kind (resource or data source) and the type name. */
export function unknownTypeError(kind: SchemaEntryKind, typeName: string): ProviderError<"unknown_type"> {
  const what =
    kind === "resource" ? "resource type" : kind === "data_source" ? "data source" : kind === "ephemeral_resource" ? "ephemeral resource type" : "function";
  return new ProviderError({ code: "unknown_type", kind, typeName }, `the provider has no ${what} ${JSON.stringify(typeName)}`);
}

/** A `plugin_exited` error. */
export function pluginExitedError(
  message: string,
  status: { exitCode: number | null; signal: string | null; stderrTail?: string; panicExcerpt?: string },
  options?: { cause?: unknown },
): ProviderError<"plugin_exited"> {
  return new ProviderError(
    { code: "plugin_exited", exitCode: status.exitCode, signal: status.signal, stderrTail: status.stderrTail ?? "", panicExcerpt: status.panicExcerpt },
    message,
    causeOf(options),
  );
}

/** A `handshake_failed` error, with the offending handshake line and stderr tail when known. */
export function handshakeFailedError(message: string, options?: { line?: string; stderrTail?: string; cause?: unknown }): ProviderError<"handshake_failed"> {
  const detail: { code: "handshake_failed"; line?: string; stderrTail?: string } = { code: "handshake_failed" };
  if (options?.line !== undefined) detail.line = options.line;
  if (options?.stderrTail !== undefined) detail.stderrTail = options.stderrTail;
  return new ProviderError(detail, message, causeOf(options));
}

/** A `protocol_mismatch` error: the plugin's version is none of the client's. */
export function protocolMismatchError(pluginVersion: number, clientVersions: readonly number[]): ProviderError<"protocol_mismatch"> {
  return new ProviderError(
    { code: "protocol_mismatch", pluginVersion, clientVersions: Object.freeze(clientVersions.slice()) },
    `the plugin speaks protocol version ${pluginVersion}, the client offered ${clientVersions.join(", ")}`,
  );
}

/** An `invalid_response` error, naming the operation and the path in the response when known. */
export function invalidResponseError(message: string, options?: { operation?: string; path?: Path; cause?: unknown }): ProviderError<"invalid_response"> {
  const detail: { code: "invalid_response"; operation?: string; path?: Path } = { code: "invalid_response" };
  if (options?.operation !== undefined) detail.operation = options.operation;
  if (options?.path !== undefined) detail.path = options.path;
  return new ProviderError(detail, message, causeOf(options));
}

/** A `canceled` error. */
export function canceledError(message = "the operation was canceled", options?: { cause?: unknown }): ProviderError<"canceled"> {
  return new ProviderError({ code: "canceled" }, message, causeOf(options));
}

/** A `deadline_exceeded` error. */
export function deadlineExceededError(message = "the operation ran out of time", options?: { timeoutMs?: number; cause?: unknown }): ProviderError<"deadline_exceeded"> {
  const detail: { code: "deadline_exceeded"; timeoutMs?: number } = { code: "deadline_exceeded" };
  if (options?.timeoutMs !== undefined) detail.timeoutMs = options.timeoutMs;
  return new ProviderError(detail, message, causeOf(options));
}

/**
 * A `provider_not_found` error: no binary for a source address, or a binary that is missing
 * or not executable.
 */
export function providerNotFoundError(
  message: string,
  options?: { binary?: string; searched?: readonly string[]; cause?: unknown },
): ProviderError<"provider_not_found"> {
  const detail: { code: "provider_not_found"; binary?: string; searched?: readonly string[] } = { code: "provider_not_found" };
  if (options?.binary !== undefined) detail.binary = options.binary;
  if (options?.searched !== undefined) detail.searched = Object.freeze(options.searched.slice());
  return new ProviderError(detail, message, causeOf(options));
}

/**
 * A `function_error`: the function `functionName` failed with `text`, at argument
 * `argument` when given. The message follows Terraform's wording: `function "<name>":
 * invalid value for "<parameter>" parameter (argument <i>): <text>` for an argument's
 * problem (the parameter's name when known), else `call to function "<name>" failed: <text>`.
 */
export function functionCallError(
  functionName: string,
  text: string,
  options?: { argument?: number; parameter?: string; cause?: unknown },
): ProviderError<"function_error"> {
  const detail: { code: "function_error"; functionName: string; text: string; argument?: number } = { code: "function_error", functionName, text };
  const arg = options?.argument;
  if (arg !== undefined) detail.argument = arg;
  const p = options?.parameter;
  const message =
    arg === undefined
      ? `call to function ${JSON.stringify(functionName)} failed: ${text}`
      : `function ${JSON.stringify(functionName)}: invalid value for ${p === undefined || p === "" ? "the" : JSON.stringify(p)} parameter (argument ${arg}): ${text}`;
  return new ProviderError(detail, message, causeOf(options));
}

function causeOf(options: { cause?: unknown } | undefined): { cause?: unknown } | undefined {
  return options !== undefined && "cause" in options ? { cause: options.cause } : undefined;
}

// ---------------------------------------------------------------------------------------
// Retry classification

/** gRPC statuses (snake_case) that mean "try again later" for a transport failure. */
const RETRYABLE_GRPC: ReadonlySet<string> = new Set(["unavailable", "resource_exhausted", "aborted", "deadline_exceeded", "unknown"]);

/**
 * Text in an error diagnostic that marks a transient problem: throttling, rate limits,
 * quota, timeouts, HTTP 429/503, connection resets.
 */
const TRANSIENT_TEXT: readonly RegExp[] = [
  /throttl/i,
  /rate[ _-]?limit/i,
  /rate[ _-]?exceeded/i,
  /too many requests/i,
  /quota/i,
  /timed?[ _-]?out/i,
  /timeout/i,
  /\b429\b/,
  /\b503\b/,
  /service unavailable/i,
  /connection (?:was )?reset/i,
  /\bECONNRESET\b/,
  /\bEPIPE\b/,
  /\bETIMEDOUT\b/,
  /slow ?down/i,
  /try again later/i,
];

/** True when the diagnostic's summary or detail reports a transient condition. */
function isTransientDiag(d: Diag): boolean {
  const text = `${d.summary}\n${d.detail ?? ""}`;
  return TRANSIENT_TEXT.some((re) => re.test(text));
}

/**
 * Whether retrying the failed call could succeed: a pure function of the error.
 *
 * - `transport`: true, unless the gRPC status says the request itself is wrong
 *   (anything but `unavailable`, `resource_exhausted`, `aborted`, `deadline_exceeded`,
 *   `unknown`);
 * - `deadline_exceeded`: true;
 * - `diagnostics`: true when every error-severity diagnostic reports throttling, a rate
 *   limit, quota, a timeout, HTTP 429 or 503, or a connection reset (one plain
 *   validation error makes it false);
 * - everything else — notably `partially_applied` (even when its text mentions a
 *   timeout: the object exists and must be recorded, not created again), `no_new_state`,
 *   `schema`, `not_configured`, `unknown_type`, `invalid_response`, `canceled`,
 *   `plugin_exited`, `handshake_failed`, `protocol_mismatch`, `function_error` — and anything that is not a
 *   {@link ProviderError}: false.
 */
export function isRetryable(err: unknown): boolean {
  if (!isProviderError(err)) return false;
  switch (err.code) {
    case "transport": {
      const g = err.detail.grpcCode;
      return g === undefined || RETRYABLE_GRPC.has(g);
    }
    case "deadline_exceeded":
      return true;
    case "diagnostics": {
      const errors = err.detail.diagnostics.filter((d) => d.severity === "error");
      return errors.length > 0 && errors.every(isTransientDiag);
    }
    case "partially_applied":
    case "no_new_state":
    case "schema":
    case "not_configured":
    case "unknown_type":
    case "invalid_response":
    case "canceled":
    case "plugin_exited":
    case "handshake_failed":
    case "protocol_mismatch":
    case "provider_not_found":
    case "function_error":
      return false;
  }
}
