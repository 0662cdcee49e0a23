import { AwsError } from "./aws-error.js";

/** A decoded AWS Query / EC2 Query parameter tree: nested objects, 1-based lists as arrays. */
export type QueryValue = string | QueryTree | QueryValue[];

/** An object node of a decoded query parameter tree. */
export interface QueryTree {
  [name: string]: QueryValue;
}

/**
 * Decodes a form-encoded AWS Query body (`Action=X&Filter.1.Name=a&Filter.1.Value.1=b`) into
 * a tree: dotted names nest, and numeric segments (1-based, as the SDKs send them) become
 * arrays ordered by index (`{ Action: "X", Filter: [{ Name: "a", Value: ["b"] }] }`).
 *
 * @throws {@link AwsError} `MalformedQueryString` (400) when a name is used both as a value
 * and as a parent (`A=1&A.B=2`), has an empty segment, or a list index is not a positive integer.
 */
export function parseQueryParams(body: string): QueryTree {
  const root: Node = new Map();
  for (const [name, value] of new URLSearchParams(body)) {
    const segments = name.split(".");
    if (segments.some((s) => s === "")) {
      throw new AwsError("MalformedQueryString", `Parameter name '${name}' has an empty segment.`);
    }
    let node = root;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i] as string;
      const last = i === segments.length - 1;
      const existing = node.get(seg);
      if (last) {
        if (existing !== undefined) {
          throw new AwsError("MalformedQueryString", `Parameter '${name}' is given more than once or also has sub-parameters.`);
        }
        node.set(seg, value);
      } else if (existing === undefined) {
        const child: Node = new Map();
        node.set(seg, child);
        node = child;
      } else if (typeof existing === "string") {
        throw new AwsError("MalformedQueryString", `Parameter '${segments.slice(0, i + 1).join(".")}' has both a value and sub-parameters.`);
      } else {
        node = existing;
      }
    }
  }
  return finish(root, "") as QueryTree;
}

type Node = Map<string, string | Node>;

function finish(node: Node, path: string): QueryValue {
  const keys = [...node.keys()];
  const numeric = keys.length > 0 && keys.every((k) => /^[0-9]+$/.test(k));
  if (numeric) {
    const indexed = keys.map((k) => {
      const index = Number(k);
      if (index < 1) {
        throw new AwsError("MalformedQueryString", `List index '${path}${k}' must be 1 or greater.`);
      }
      return [index, k] as const;
    });
    indexed.sort((a, b) => a[0] - b[0]);
    return indexed.map(([, k]) => convert(node.get(k) as string | Node, `${path}${k}.`));
  }
  const out: QueryTree = {};
  for (const k of keys) out[k] = convert(node.get(k) as string | Node, `${path}${k}.`);
  return out;
}

function convert(v: string | Node, path: string): QueryValue {
  return typeof v === "string" ? v : finish(v, path);
}

/** Reads a scalar string parameter, or `undefined` when absent. @throws AwsError when it is not a scalar. */
export function queryString(tree: QueryTree, name: string): string | undefined {
  const v = tree[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") {
    throw new AwsError("InvalidParameterValue", `Parameter '${name}' must be a single value.`);
  }
  return v;
}

/** Reads a list of strings (`Name.1`, `Name.2`, …); absent → `[]`. @throws AwsError when an item is not a scalar. */
export function queryStringList(tree: QueryTree, name: string): string[] {
  const v = tree[name];
  if (v === undefined) return [];
  if (typeof v === "string") return [v];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    throw new AwsError("InvalidParameterValue", `Parameter '${name}' must be a list of values (${name}.1, ${name}.2, …).`);
  }
  return v as string[];
}

/** Reads a list of structures (`Name.1.Field`, …); absent → `[]`. @throws AwsError when an item is not a structure. */
export function queryStructList(tree: QueryTree, name: string): QueryTree[] {
  const v = tree[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "object" || Array.isArray(x))) {
    throw new AwsError("InvalidParameterValue", `Parameter '${name}' must be a list of structures (${name}.1.Field, …).`);
  }
  return v as QueryTree[];
}
