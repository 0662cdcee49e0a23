import { fromBinary, type DescMessage } from "@bufbuild/protobuf";
import { Path as CtyPath, typeFromJson, typeToJson, isPathError, type Path } from "@magma/cty";
import {
  createSchemaEntry,
  NestingMode,
  StringKind,
  schemaError,
  type Attribute,
  type Block,
  type NestedAttributeType,
  type NestedBlock,
  type ObjectNestingMode,
  type SchemaEntry,
  type ServerCapabilities,
} from "@magma/provider-api";
import type {
  ProtoAttribute,
  ProtoBlock,
  ProtoNestedBlock,
  ProtoObject,
  ProtoSchema,
  ProtoServerCapabilities,
} from "./proto-shapes.js";

const BLOCK_NESTING: Record<number, NestingMode | undefined> = {
  1: NestingMode.Single,
  2: NestingMode.List,
  3: NestingMode.Set,
  4: NestingMode.Map,
  5: NestingMode.Group,
};
const OBJECT_NESTING: Record<number, ObjectNestingMode | undefined> = {
  1: NestingMode.Single,
  2: NestingMode.List,
  3: NestingMode.Set,
  4: NestingMode.Map,
};

/** Type JSON → Type, memoised: the same few type strings recur thousands of times. */
const typeCache = new Map<string, ReturnType<typeof typeFromJson>>();
const utf8 = new TextDecoder();

/**
 * Reads a cty type from its wire form (type JSON bytes), memoised.
 *
 * @param path The attribute path for the error (none for a function's types).
 * @param what What the type is, for the message (default `attribute type`).
 * @throws ProviderError `schema` naming `where()`, `what` and the text when it is not cty type JSON.
 * @internal
 */
export function typeFromProto(bytes: Uint8Array, where: () => string, path: Path | undefined, what = "attribute type"): ReturnType<typeof typeFromJson> {
  let text = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) {
      text = utf8.decode(bytes);
      break;
    }
    text += String.fromCharCode(b);
  }
  const hit = typeCache.get(text);
  if (hit !== undefined) return hit;
  try {
    const t = typeFromJson(text);
    if (typeCache.size < 10_000) typeCache.set(text, t);
    return t;
  } catch (e) {
    if (isPathError(e)) throw schemaError(`${where()}: ${what} ${JSON.stringify(text)} is not cty type JSON: ${e.reason}`, path === undefined ? { cause: e } : { path, cause: e });
    throw e;
  }
}

/**
 * Reads a wire `StringKind` (1 is markdown; anything else plain).
 *
 * @internal
 */
export function stringKindFromProto(k: number): StringKind {
  return k === 1 ? StringKind.Markdown : StringKind.Plain;
}

function safeCount(n: bigint, what: string, where: () => string, path: Path): number {
  if (n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw schemaError(`${where()}: ${what} ${n} is out of range`, { path });
  return Number(n);
}

function attributeFromProto(a: ProtoAttribute, where: () => string, path: Path): Attribute {
  const out: { -readonly [K in keyof Attribute]: Attribute[K] } = {};
  if (a.nestedType !== undefined) {
    out.nestedType = objectFromProto(a.nestedType, where, path);
    if (a.type.length > 0) throw schemaError(`${where()}: attribute has both a type and a nested type`, { path });
  } else {
    if (a.type.length === 0) throw schemaError(`${where()}: attribute has no type`, { path });
    out.type = typeFromProto(a.type, where, path);
  }
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  if (a.writeOnly) out.writeOnly = true;
  if (a.deprecated) out.deprecated = true;
  if (a.deprecationMessage !== "") out.deprecationMessage = a.deprecationMessage;
  if (a.description !== "") out.description = a.description;
  // Kept without a description too when it says markdown: Terraform prints it either way.
  if (a.description !== "" || a.descriptionKind === 1) out.descriptionKind = stringKindFromProto(a.descriptionKind);
  return out;
}

function attributesFromProto(list: readonly ProtoAttribute[], where: () => string, path: Path): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const a of list) {
    const p = path.attr(a.name);
    if (Object.prototype.hasOwnProperty.call(out, a.name)) throw schemaError(`${where()}: attribute ${JSON.stringify(a.name)} is declared twice`, { path: p });
    out[a.name] = attributeFromProto(a, where, p);
  }
  return out;
}

function objectFromProto(o: ProtoObject, where: () => string, path: Path): NestedAttributeType {
  const nesting = OBJECT_NESTING[o.nesting];
  if (nesting === undefined) throw schemaError(`${where()}: nested attribute type has invalid nesting mode ${o.nesting}`, { path });
  return { attributes: attributesFromProto(o.attributes, where, path), nesting };
}

function nestedBlockFromProto(nb: ProtoNestedBlock, where: () => string, path: Path): NestedBlock {
  const nesting = BLOCK_NESTING[nb.nesting];
  if (nesting === undefined) throw schemaError(`${where()}: block type has invalid nesting mode ${nb.nesting}`, { path });
  const out: { -readonly [K in keyof NestedBlock]: NestedBlock[K] } = {
    nesting,
    block: nb.block === undefined ? {} : blockFromProto(nb.block, where, path),
  };
  const min = safeCount(nb.minItems, "min_items", where, path);
  const max = safeCount(nb.maxItems, "max_items", where, path);
  if (min > 0) out.minItems = min;
  if (max > 0) out.maxItems = max;
  return out;
}

/**
 * Reads a wire `Schema.Block`.
 *
 * @throws ProviderError `schema` naming the type and the attribute path of any problem.
 * @internal
 */
export function blockFromProto(b: ProtoBlock, where: () => string, path: Path = CtyPath.root): Block {
  const out: { -readonly [K in keyof Block]: Block[K] } = {};
  if (b.attributes.length > 0) out.attributes = attributesFromProto(b.attributes, where, path);
  if (b.blockTypes.length > 0) {
    const blocks: Record<string, NestedBlock> = {};
    for (const nb of b.blockTypes) {
      const p = path.attr(nb.typeName);
      if (Object.prototype.hasOwnProperty.call(blocks, nb.typeName) || (out.attributes !== undefined && nb.typeName in out.attributes)) {
        throw schemaError(`${where()}: ${JSON.stringify(nb.typeName)} is declared twice`, { path: p });
      }
      blocks[nb.typeName] = nestedBlockFromProto(nb, where, p);
    }
    out.blockTypes = blocks;
  }
  if (b.description !== "") out.description = b.description;
  if (b.description !== "" || b.descriptionKind === 1) out.descriptionKind = stringKindFromProto(b.descriptionKind);
  if (b.deprecated) out.deprecated = true;
  if (b.deprecationMessage !== "") out.deprecationMessage = b.deprecationMessage;
  return out;
}

/**
 * Reads a wire `Schema` as a {@link SchemaEntry} (block, version and implied type).
 *
 * @throws ProviderError `schema`.
 * @internal
 */
export function schemaEntryFromProto(s: ProtoSchema, where: string): SchemaEntry {
  const whereFn = (): string => where;
  const version = s.version;
  if (version < 0n || version > BigInt(Number.MAX_SAFE_INTEGER)) throw schemaError(`${where}: schema version ${version} is out of range`);
  const block = s.block === undefined ? {} : blockFromProto(s.block, whereFn);
  return createSchemaEntry(block, Number(version));
}

/**
 * A read-only map of schema entries that keeps each entry's wire bytes undecoded until it
 * is first asked for (then decodes and converts it once). Iterating values or entries
 * decodes everything.
 *
 * @internal
 */
export class LazySchemaMap implements ReadonlyMap<string, SchemaEntry> {
  readonly #raw: ReadonlyMap<string, Uint8Array>;
  readonly #decoded = new Map<string, SchemaEntry>();
  readonly #schema: DescMessage;
  readonly #kind: string;

  constructor(raw: ReadonlyMap<string, Uint8Array>, schema: DescMessage, kind: string) {
    this.#raw = raw;
    this.#schema = schema;
    this.#kind = kind;
  }

  get size(): number {
    return this.#raw.size;
  }

  has(key: string): boolean {
    return this.#raw.has(key);
  }

  get(key: string): SchemaEntry | undefined {
    const hit = this.#decoded.get(key);
    if (hit !== undefined) return hit;
    const bytes = this.#raw.get(key);
    if (bytes === undefined) return undefined;
    let msg: ProtoSchema;
    try {
      msg = fromBinary(this.#schema, bytes) as unknown as ProtoSchema;
    } catch (cause) {
      throw schemaError(`${this.#kind} ${JSON.stringify(key)}: the schema message does not decode`, { cause });
    }
    const entry = schemaEntryFromProto(msg, `${this.#kind} ${JSON.stringify(key)}`);
    this.#decoded.set(key, entry);
    return entry;
  }

  keys(): MapIterator<string> {
    return this.#raw.keys();
  }

  *values(): MapIterator<SchemaEntry> {
    for (const k of this.#raw.keys()) yield this.get(k)!;
  }

  *entries(): MapIterator<[string, SchemaEntry]> {
    for (const k of this.#raw.keys()) yield [k, this.get(k)!];
  }

  [Symbol.iterator](): MapIterator<[string, SchemaEntry]> {
    return this.entries();
  }

  forEach(callback: (value: SchemaEntry, key: string, map: ReadonlyMap<string, SchemaEntry>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }
}

/**
 * Reads wire server capabilities.
 *
 * @internal
 */
export function serverCapabilitiesFromProto(c: ProtoServerCapabilities | undefined): ServerCapabilities {
  return {
    planDestroy: c?.planDestroy ?? false,
    getProviderSchemaOptional: c?.getProviderSchemaOptional ?? false,
    moveResourceState: c?.moveResourceState ?? false,
    generateResourceConfig: c?.generateResourceConfig ?? false,
  };
}

// ---------------------------------------------------------------------------------------
// Writing schemas (used when serving a native provider).

const OBJECT_NESTING_NUMBER = { single: 1, list: 2, set: 3, map: 4 } as const satisfies Record<ObjectNestingMode, number>;
const NESTING_NUMBER = { single: 1, list: 2, set: 3, map: 4, group: 5 } as const satisfies Record<NestingMode, number>;

function attributeToProto(name: string, a: Attribute, version: 5 | 6): ProtoAttribute {
  const out: ProtoAttribute = {
    name,
    type: new Uint8Array(),
    description: a.description ?? "",
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
    descriptionKind: a.descriptionKind === StringKind.Markdown ? 1 : 0,
    deprecated: a.deprecated === true,
    writeOnly: a.writeOnly === true,
    deprecationMessage: a.deprecationMessage ?? "",
  };
  if (a.nestedType !== undefined) {
    if (version === 5) throw schemaError(`attribute ${JSON.stringify(name)} has a nested type, which protocol 5 cannot carry`);
    out.nestedType = {
      attributes: Object.entries(a.nestedType.attributes).map(([n, x]) => attributeToProto(n, x, version)),
      nesting: OBJECT_NESTING_NUMBER[a.nestedType.nesting],
    };
  } else if (a.type !== undefined) {
    out.type = new TextEncoder().encode(typeToJson(a.type));
  }
  return out;
}

/**
 * Writes a {@link Block} for the wire (attributes and block types in name order).
 *
 * @throws ProviderError `schema` when a v6-only feature is sent over protocol 5.
 * @internal
 */
export function blockToProto(b: Block, version: 5 | 6): ProtoBlock {
  const attrs = Object.entries(b.attributes ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const blocks = Object.entries(b.blockTypes ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    version: 0n,
    attributes: attrs.map(([n, a]) => attributeToProto(n, a, version)),
    blockTypes: blocks.map(([n, nb]) => ({
      typeName: n,
      block: blockToProto(nb.block, version),
      nesting: NESTING_NUMBER[nb.nesting],
      minItems: BigInt(nb.minItems ?? 0),
      maxItems: BigInt(nb.maxItems ?? 0),
    })),
    description: b.description ?? "",
    descriptionKind: b.descriptionKind === StringKind.Markdown ? 1 : 0,
    deprecated: b.deprecated === true,
    deprecationMessage: b.deprecationMessage ?? "",
  };
}

/**
 * Writes a {@link SchemaEntry} for the wire.
 *
 * @internal
 */
export function schemaEntryToProto(e: SchemaEntry, version: 5 | 6): ProtoSchema {
  return { version: BigInt(e.version), block: blockToProto(e.block, version) };
}
