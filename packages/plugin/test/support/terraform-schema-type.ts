/**
 * Test support: the implied cty type of a block as `terraform providers schema -json`
 * prints it, computed straight from that JSON (protocol.md D2), independently of
 * magma's wire conversion and of `impliedType`. Nothing here is part of the package API.
 */
import {
  dynamicType,
  hasDynamicTypes,
  listType,
  mapType,
  objectType,
  setType,
  typeFromJsonValue,
  type ObjectType,
  type Type,
} from "@magma/cty";

/** An attribute of Terraform's schema JSON (only what decides the type). */
interface JsonAttribute {
  readonly type?: unknown;
  readonly nested_type?: {
    readonly attributes?: Record<string, JsonAttribute>;
    readonly nesting_mode: string;
  };
}

/** A block of Terraform's schema JSON (only what decides the type). */
export interface JsonBlock {
  readonly attributes?: Record<string, JsonAttribute>;
  readonly block_types?: Record<
    string,
    { readonly nesting_mode: string; readonly block: JsonBlock }
  >;
}

function attributeType(name: string, a: JsonAttribute): Type {
  if (a.type !== undefined) return typeFromJsonValue(a.type);
  const n = a.nested_type;
  if (n === undefined) throw new Error(`attribute ${name} has neither type nor nested_type`);
  const inner: Record<string, Type> = {};
  for (const [k, x] of Object.entries(n.attributes ?? {})) inner[k] = attributeType(k, x);
  const o = objectType(inner);
  switch (n.nesting_mode) {
    case "single":
      return o;
    case "list":
      return listType(o);
    case "set":
      return setType(o);
    case "map":
      return mapType(o);
    default:
      throw new Error(`attribute ${name}: unknown nested nesting_mode ${n.nesting_mode}`);
  }
}

/** The implied type of a block of Terraform's schema JSON. */
export function impliedTypeOfJsonBlock(block: JsonBlock): ObjectType {
  const attrs: Record<string, Type> = {};
  for (const [k, a] of Object.entries(block.attributes ?? {})) attrs[k] = attributeType(k, a);
  for (const [k, bt] of Object.entries(block.block_types ?? {})) {
    const o = impliedTypeOfJsonBlock(bt.block);
    switch (bt.nesting_mode) {
      case "single":
      case "group":
        attrs[k] = o;
        break;
      case "list":
        attrs[k] = hasDynamicTypes(o) ? dynamicType : listType(o);
        break;
      case "set":
        attrs[k] = setType(o);
        break;
      case "map":
        attrs[k] = hasDynamicTypes(o) ? dynamicType : mapType(o);
        break;
      default:
        throw new Error(`block type ${k}: unknown nesting_mode ${bt.nesting_mode}`);
    }
  }
  return objectType(attrs);
}
