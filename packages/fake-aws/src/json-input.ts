import { AwsError } from "./aws-error.js";

/** A parsed JSON 1.1 request or response body. */
export type JsonObject = { [name: string]: unknown };

/**
 * Typed readers for JSON 1.1 request members. Each throws an {@link AwsError} with the
 * service's validation error code (SSM: `ValidationException`, Logs:
 * `InvalidParameterException`) naming the member when it is missing or of the wrong type.
 */
export class JsonInput {
  readonly #input: JsonObject;
  readonly #code: string;

  /**
   * @param input - the parsed body.
   * @param validationCode - the error code for a bad member.
   */
  constructor(input: JsonObject, validationCode: string) {
    this.#input = input;
    this.#code = validationCode;
  }

  /** An optional string member. */
  string(name: string): string | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") throw this.#bad(name, "a string");
    return v;
  }

  /** A required string member. */
  requiredString(name: string): string {
    const v = this.string(name);
    if (v === undefined) {
      throw new AwsError(this.#code, `1 validation error detected: Value null at '${lowerFirst(name)}' failed to satisfy constraint: Member must not be null`);
    }
    return v;
  }

  /** An optional boolean member. */
  boolean(name: string): boolean | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") throw this.#bad(name, "a boolean");
    return v;
  }

  /** An optional integer member. */
  integer(name: string): number | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v)) throw this.#bad(name, "an integer");
    return v;
  }

  /** An optional list of strings. */
  stringList(name: string): string[] | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw this.#bad(name, "a list of strings");
    return v as string[];
  }

  /** An optional list of objects. */
  objectList(name: string): JsonInput[] | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => !isJsonObject(x))) throw this.#bad(name, "a list of structures");
    return (v as JsonObject[]).map((o) => new JsonInput(o, this.#code));
  }

  /** An optional string-to-string map. */
  stringMap(name: string): Record<string, string> | undefined {
    const v = this.#input[name];
    if (v === undefined || v === null) return undefined;
    if (!isJsonObject(v) || Object.values(v).some((x) => typeof x !== "string")) throw this.#bad(name, "a map of strings");
    return { ...(v as Record<string, string>) };
  }

  #bad(name: string, what: string): AwsError {
    return new AwsError(this.#code, `1 validation error detected: Value at '${lowerFirst(name)}' failed to satisfy constraint: Member must be ${what}`);
  }
}

/** Whether `x` is a plain JSON object (not null, not an array). */
export function isJsonObject(x: unknown): x is JsonObject {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Parses a JSON 1.1 request body; an empty body is `{}`. @throws AwsError `SerializationException` (400). */
export function parseJsonBody(body: string): JsonObject {
  if (body.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw new AwsError("SerializationException", `Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (!isJsonObject(parsed)) throw new AwsError("SerializationException", "Request body must be a JSON object.");
  return parsed;
}
