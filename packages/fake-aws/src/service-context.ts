import type { JsonObject } from "./json-input.js";
import type { QueryTree } from "./query-params.js";
import type { XmlFields } from "./xml-writer.js";

/** The account and region a fake service answers for. */
export interface ServiceContext {
  /** The 12-digit account id used in ARNs. */
  readonly accountId: string;
  /** The region used in ARNs and zone names. */
  readonly region: string;
}

/** A JSON 1.1 operation: parsed body in, response object out (or a thrown `AwsError`). */
export type JsonHandler = (input: JsonObject) => JsonObject;

/** A Query operation: decoded parameter tree in, the response element's children out. */
export type QueryHandler = (input: QueryTree) => XmlFields;
