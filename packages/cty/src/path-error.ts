import type { Path } from "./path.js";

/**
 * The stable codes of {@link PathError}. Switch on `error.code`; the message text may change.
 */
export const PathErrorCode = {
  /** msgpack bytes that are not well-formed msgpack (truncated, bad header, trailing data). */
  MalformedMsgpack: "malformed_msgpack",
  /** JSON text that is not well-formed JSON. */
  MalformedJson: "malformed_json",
  /** Type JSON that does not describe a cty type. */
  InvalidType: "invalid_type",
  /** A value of the wrong kind for the type (a string where a number is expected, a missing or extra attribute). */
  TypeMismatch: "type_mismatch",
  /** An operation that needs a known value met an unknown one (e.g. JSON encoding of an unknown). */
  UnknownValue: "unknown_value",
  /** An operation that needs a non-null value met a null. */
  NullValue: "null_value",
  /** A value that is of the right kind but not acceptable (NaN, bad number text, invalid refinement, invalid UTF-8). */
  InvalidValue: "invalid_value",
} as const;

/** One of the {@link PathErrorCode} values. */
export type PathErrorCode = (typeof PathErrorCode)[keyof typeof PathErrorCode];

/**
 * The one error that `@magma/cty` throws: codecs, conversion and value construction report
 * what was wrong and where.
 *
 * The message is written in cty terms, prefixed by the path in go-cty's error style:
 * `.rules[1].from: expected number, got string`. `reason` holds the text without the path.
 */
export class PathError extends Error {
  /** Always `"PathError"`. */
  override readonly name = "PathError" as const;
  /** What kind of problem this is. */
  readonly code: PathErrorCode;
  /** Where in the value (or type) the problem is; the root path when it is the whole value. */
  readonly path: Path;
  /** The message without the path prefix. */
  readonly reason: string;

  /** Makes an error; `cause` is kept as the standard `Error.cause`. */
  constructor(code: PathErrorCode, path: Path, reason: string, options?: { cause?: unknown }) {
    super(formatMessage(path, reason), options);
    this.code = code;
    this.path = path;
    this.reason = reason;
  }
}

/**
 * Whether `x` is a {@link PathError}, checked by shape rather than `instanceof` so that two
 * copies of this package still recognise each other's errors.
 */
export function isPathError(x: unknown): x is PathError {
  if (typeof x !== "object" || x === null) return false;
  const e = x as Partial<PathError>;
  return (
    e.name === "PathError" &&
    typeof e.code === "string" &&
    typeof e.reason === "string" &&
    typeof e.path === "object" &&
    e.path !== null &&
    Array.isArray((e.path as { steps?: unknown }).steps)
  );
}

/** The path as go-cty prefixes error messages: `.rules[1].from`, `["k"]`, or nothing. */
export function formatErrorPath(path: Path): string {
  const text = path.toString();
  if (text === "") return "";
  return text.startsWith("[") ? text : `.${text}`;
}

function formatMessage(path: Path, reason: string): string {
  const prefix = formatErrorPath(path);
  return prefix === "" ? reason : `${prefix}: ${reason}`;
}
