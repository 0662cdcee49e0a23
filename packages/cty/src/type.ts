import { compareUtf8 } from "./internal/compare-utf8.js";

/** The kinds of cty type, as the `kind` of every {@link Type}. */
export const TypeKind = {
  String: "string",
  Number: "number",
  Bool: "bool",
  /** go-cty's `DynamicPseudoType`: "any type", decided by the value. */
  Dynamic: "dynamic",
  List: "list",
  Set: "set",
  Map: "map",
  Object: "object",
  Tuple: "tuple",
} as const;

/** One of the {@link TypeKind} values. */
export type TypeKind = (typeof TypeKind)[keyof typeof TypeKind];

/** The string type. */
export interface StringType {
  readonly kind: "string";
}
/** The number type (arbitrary precision). */
export interface NumberType {
  readonly kind: "number";
}
/** The bool type. */
export interface BoolType {
  readonly kind: "bool";
}
/** The dynamic pseudo-type: a placeholder whose concrete type is carried by the value. */
export interface DynamicType {
  readonly kind: "dynamic";
}
/** A list of elements of one type. */
export interface ListType {
  readonly kind: "list";
  readonly element: Type;
}
/** A set of elements of one type. */
export interface SetType {
  readonly kind: "set";
  readonly element: Type;
}
/** A map from string keys to elements of one type. */
export interface MapType {
  readonly kind: "map";
  readonly element: Type;
}
/**
 * An object with a fixed set of named attributes.
 *
 * `optional` names attributes marked optional: that marker exists only in type constraints
 * (the 3-element type JSON form), never in the types of values on the wire.
 */
export interface ObjectType {
  readonly kind: "object";
  readonly attributes: Readonly<Record<string, Type>>;
  /** Attribute names in go-cty's order (by UTF-8 bytes), as encoders write them. */
  readonly attributeNames: readonly string[];
  readonly optional: ReadonlySet<string>;
}
/** A tuple: a fixed sequence of elements, each with its own type. */
export interface TupleType {
  readonly kind: "tuple";
  readonly elements: readonly Type[];
}

/** A primitive type. */
export type PrimitiveType = StringType | NumberType | BoolType;
/** A collection type. */
export type CollectionType = ListType | SetType | MapType;

/** A cty type. Compare types with {@link typeEquals}, not `===`. */
export type Type =
  | StringType
  | NumberType
  | BoolType
  | DynamicType
  | ListType
  | SetType
  | MapType
  | ObjectType
  | TupleType;

/** The string type. */
export const stringType: StringType = Object.freeze({ kind: "string" });
/** The number type. */
export const numberType: NumberType = Object.freeze({ kind: "number" });
/** The bool type. */
export const boolType: BoolType = Object.freeze({ kind: "bool" });
/** The dynamic pseudo-type (go-cty's `DynamicPseudoType`). */
export const dynamicType: DynamicType = Object.freeze({ kind: "dynamic" });

const EMPTY_SET: ReadonlySet<string> = new Set<string>();

// Interning. Structurally equal types made by these constructors are, as far as the table
// reaches, one frozen object: values of one schema (thousands of instances, each value of a
// provider's plan or of an evaluated configuration) share their type instead of carrying a
// copy each, and what is cached per type object (the codecs' plans, typeToJson) is computed
// once. The table is a trie keyed by the children's type objects (and attribute names), so
// finding a type already made allocates nothing. It is bounded: past INTERN_LIMIT nodes it
// starts over (types made before keep working; later ones are simply not shared with them).
// Sharing is an optimisation only: types are compared with typeEquals, never by identity.
const INTERN_LIMIT = 50_000;

/** A trie node: the type made from the path to it, and the next steps (by name for objects). */
interface InternNode<T> {
  value: T | undefined;
  byType: Map<Type, InternNode<T>> | undefined;
  byName: Map<string, Map<Type, InternNode<T>>> | undefined;
}

let internNodes = 0;
let lists = new Map<Type, ListType>();
let sets = new Map<Type, SetType>();
let maps = new Map<Type, MapType>();
let tuples: InternNode<TupleType> = newNode();
let objects: InternNode<InternedObjectType> = newNode();

function newNode<T>(): InternNode<T> {
  return { value: undefined, byType: undefined, byName: undefined };
}

/** Counts one more interned node; starts the whole table over when it is full. */
function grow(): void {
  if (++internNodes <= INTERN_LIMIT) return;
  internNodes = 1;
  lists = new Map();
  sets = new Map();
  maps = new Map();
  tuples = newNode();
  objects = newNode();
}

function internCollection<T extends CollectionType>(table: Map<Type, T>, element: Type, make: () => T): T {
  let t = table.get(element);
  if (t === undefined) {
    t = make();
    grow();
    table.set(element, t);
  }
  return t;
}

function typeStep<T>(node: InternNode<T>, t: Type): InternNode<T> {
  node.byType ??= new Map();
  let next = node.byType.get(t);
  if (next === undefined) {
    next = newNode();
    grow();
    node.byType.set(t, next);
  }
  return next;
}

function nameStep<T>(node: InternNode<T>, name: string, t: Type): InternNode<T> {
  node.byName ??= new Map();
  let byType = node.byName.get(name);
  if (byType === undefined) {
    byType = new Map();
    node.byName.set(name, byType);
  }
  let next = byType.get(t);
  if (next === undefined) {
    next = newNode();
    grow();
    byType.set(t, next);
  }
  return next;
}

/**
 * An object type as {@link internObjectType} returns it: the type, and for each of its
 * attributes in `attributeNames` order the index of that attribute in the names it was
 * made from (so that a caller holding values in its own order can place them without a
 * lookup by name).
 * @internal
 */
export interface InternedObjectType {
  readonly type: ObjectType;
  readonly order: readonly number[];
}

/**
 * The object type of `names[i]: types[i]` (no optional markers), shared with every equal
 * type. Names must be distinct.
 * @internal
 */
export function internObjectType(names: readonly string[], types: readonly Type[]): InternedObjectType {
  const roots = objects;
  let node = roots;
  for (let i = 0; i < names.length; i++) node = nameStep(node, names[i]!, types[i]!);
  if (node.value !== undefined) return node.value;
  // First time in this order: the type is shared with the same attributes in any other
  // order through the path of the attributes in UTF-8 order.
  const made = buildObjectType(names, types, EMPTY_SET);
  let canonical = roots;
  for (const i of made.order) canonical = nameStep(canonical, names[i]!, types[i]!);
  canonical.value ??= { type: made.type, order: made.type.attributeNames.map((_, i) => i) };
  node.value = canonical.value.type === made.type ? made : { type: canonical.value.type, order: made.order };
  return node.value;
}

function buildObjectType(names: readonly string[], types: readonly Type[], optional: ReadonlySet<string>): InternedObjectType {
  const attrs: Record<string, Type> = Object.create(null) as Record<string, Type>;
  const at = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    attrs[names[i]!] = types[i]!;
    at.set(names[i]!, i);
  }
  const sorted = [...at.keys()].sort(compareUtf8);
  const type: ObjectType = Object.freeze({
    kind: "object",
    attributes: Object.freeze(attrs),
    attributeNames: Object.freeze(sorted),
    optional,
  });
  return { type, order: Object.freeze(sorted.map((n) => at.get(n)!)) };
}

/** The type `list(element)`. */
export function listType(element: Type): ListType {
  return internCollection(lists, element, () => Object.freeze({ kind: "list", element }));
}

/** The type `set(element)`. */
export function setType(element: Type): SetType {
  return internCollection(sets, element, () => Object.freeze({ kind: "set", element }));
}

/** The type `map(element)`. */
export function mapType(element: Type): MapType {
  return internCollection(maps, element, () => Object.freeze({ kind: "map", element }));
}

/**
 * The type `object({...})`. `optional` lists attributes marked optional (type constraints
 * only).
 *
 * @throws RangeError when an optional name is not one of the attributes.
 */
export function objectType(
  attributes: Readonly<Record<string, Type>> | ReadonlyMap<string, Type>,
  optional?: Iterable<string>,
): ObjectType {
  const names: string[] = [];
  const types: Type[] = [];
  const entries = attributes instanceof Map ? attributes.entries() : Object.entries(attributes);
  for (const [name, t] of entries) {
    names.push(name);
    types.push(t);
  }
  let opt = EMPTY_SET;
  if (optional !== undefined) {
    const o = new Set(optional);
    for (const name of o) {
      if (!names.includes(name)) throw new RangeError(`optional attribute ${JSON.stringify(name)} is not an attribute of the object type`);
    }
    if (o.size > 0) opt = o;
  }
  // Optional markers exist only in type constraints (few, made once): not interned.
  return opt.size === 0 ? internObjectType(names, types).type : buildObjectType(names, types, opt).type;
}

/** The empty object type, `object({})`. */
export const emptyObjectType: ObjectType = objectType({});

/** The type `tuple([...])`. */
export function tupleType(elements: readonly Type[]): TupleType {
  let node = tuples;
  for (const e of elements) node = typeStep(node, e);
  node.value ??= Object.freeze({ kind: "tuple", elements: Object.freeze(elements.slice()) });
  return node.value;
}

/** The empty tuple type, `tuple([])`. */
export const emptyTupleType: TupleType = tupleType([]);

/** True for string, number and bool. */
export function isPrimitiveType(t: Type): t is PrimitiveType {
  return t.kind === "string" || t.kind === "number" || t.kind === "bool";
}

/** True for list, set and map. */
export function isCollectionType(t: Type): t is CollectionType {
  return t.kind === "list" || t.kind === "set" || t.kind === "map";
}

/** Structural type equality (go-cty's `Type.Equals`), including optional-attribute markers. */
export function typeEquals(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return true;
    case "list":
    case "set":
    case "map":
      return typeEquals(a.element, (b as CollectionType).element);
    case "object": {
      const o = b as ObjectType;
      if (a.attributeNames.length !== o.attributeNames.length) return false;
      if (a.optional.size !== o.optional.size) return false;
      for (const name of a.attributeNames) {
        const other = o.attributes[name];
        if (other === undefined || !typeEquals(a.attributes[name]!, other)) return false;
      }
      for (const name of a.optional) if (!o.optional.has(name)) return false;
      return true;
    }
    case "tuple": {
      const t = b as TupleType;
      if (a.elements.length !== t.elements.length) return false;
      return a.elements.every((e, i) => typeEquals(e, t.elements[i]!));
    }
  }
}

/** True when the type is or contains the dynamic pseudo-type. */
export function hasDynamicTypes(t: Type): boolean {
  switch (t.kind) {
    case "dynamic":
      return true;
    case "string":
    case "number":
    case "bool":
      return false;
    case "list":
    case "set":
    case "map":
      return hasDynamicTypes(t.element);
    case "object":
      return t.attributeNames.some((n) => hasDynamicTypes(t.attributes[n]!));
    case "tuple":
      return t.elements.some(hasDynamicTypes);
  }
}

/**
 * A short name for messages, as go-cty's `FriendlyName`: `string`, `list of number`,
 * `map of object`, `tuple`, `dynamic`.
 */
export function typeName(t: Type): string {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return `${t.kind} of ${typeName(t.element)}`;
    default:
      return t.kind;
  }
}

/**
 * The type in Terraform's type-constraint syntax: `list(string)`,
 * `object({name=string, port=optional(number)})`, `tuple([string, bool])`, `any`.
 */
export function typeString(t: Type): string {
  switch (t.kind) {
    case "dynamic":
      return "any";
    case "string":
    case "number":
    case "bool":
      return t.kind;
    case "list":
    case "set":
    case "map":
      return `${t.kind}(${typeString(t.element)})`;
    case "object":
      return `object({${t.attributeNames
        .map((n) => {
          const inner = typeString(t.attributes[n]!);
          return `${n}=${t.optional.has(n) ? `optional(${inner})` : inner}`;
        })
        .join(", ")}})`;
    case "tuple":
      return `tuple([${t.elements.map(typeString).join(", ")}])`;
  }
}
