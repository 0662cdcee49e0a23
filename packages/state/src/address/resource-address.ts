import { StateError } from "../state-error.js";
import { formatInstanceKey, type InstanceKey } from "./instance-key.js";
import { formatModuleInstance, takeModulePrefix, type ModuleInstanceAddress } from "./module-address.js";
import { parseTraversal } from "./traversal.js";

/** How a resource is declared: `resource`, `data` or `ephemeral`. */
export type ResourceMode = "managed" | "data" | "ephemeral";

/** An absolute resource address: `module.m["a"].aws_x.y`, `data.aws_z.w`. */
export interface ResourceAddress {
  /** The module instance holding the resource (empty for the root module). */
  readonly module: ModuleInstanceAddress;
  /** The resource mode. */
  readonly mode: ResourceMode;
  /** The resource type, e.g. `aws_instance`. */
  readonly type: string;
  /** The resource name. */
  readonly name: string;
}

/** An absolute resource instance address: a {@link ResourceAddress} plus an instance key. */
export interface ResourceInstanceAddress extends ResourceAddress {
  /** The instance key, or undefined for a resource without `count`/`for_each`. */
  readonly key: InstanceKey;
}

const RESERVED = new Set(["count", "each", "local", "module", "path", "self", "terraform", "var", "template", "lazy", "arg"]);
const PREFIX: Record<ResourceMode, string> = { managed: "", data: "data.", ephemeral: "ephemeral." };

function bad(text: string, why: string): never {
  throw new StateError("invalid_address", `invalid address ${JSON.stringify(text)}: ${why}`);
}

/**
 * Parses an absolute resource instance address the way Terraform's `ParseAbsResourceInstanceStr`
 * does: an optional module path, an optional `data.`/`ephemeral.`/`resource.` prefix, the type,
 * the name and an optional `[key]`.
 *
 * @throws StateError `invalid_address` saying what is wrong.
 */
export function parseResourceInstance(text: string): ResourceInstanceAddress {
  const [module, rest] = takeModulePrefix(text, parseTraversal(text));
  if (rest.length === 0) bad(text, "a resource instance address is required here; the module path must be followed by a resource specification");
  let mode: ResourceMode = "managed";
  let i = 0;
  const first = rest[0]!;
  const head = first.kind === "index" ? "" : first.name;
  if (head === "data" || head === "ephemeral") {
    mode = head;
    i = 1;
  } else if (head === "resource") {
    i = 1;
  } else if (RESERVED.has(head)) {
    bad(text, `the keyword ${JSON.stringify(head)} is reserved and cannot be used as a resource type; prefix the address with "resource." for such a type`);
  }
  const typeStep = rest[i];
  const nameStep = rest[i + 1];
  if (typeStep === undefined || nameStep === undefined) bad(text, "a resource specification must include a resource type and name");
  if (typeStep.kind === "index") bad(text, mode === "data" ? "a data source name is required" : "a resource type name is required");
  if (nameStep.kind !== "attr") bad(text, "a resource name is required");
  const tail = rest.slice(i + 2);
  let key: InstanceKey;
  if (tail.length === 1) {
    const k = tail[0]!;
    if (k.kind !== "index") bad(text, "a resource instance key must be given in square brackets");
    key = k.key;
  } else if (tail.length > 1) {
    bad(text, "unexpected extra operators after the address");
  }
  return { module, mode, type: typeStep.name, name: nameStep.name, key };
}

/**
 * Parses an absolute resource address (no instance key on the resource itself).
 *
 * @throws StateError `invalid_address`, also when the address names one instance.
 */
export function parseResource(text: string): ResourceAddress {
  const a = parseResourceInstance(text);
  if (a.key !== undefined) bad(text, "a resource address is required; this instance key identifies a specific resource instance");
  return { module: a.module, mode: a.mode, type: a.type, name: a.name };
}

/** Prints a resource address as Terraform does: `module.m.aws_x.y`, `data.aws_z.w`. */
export function formatResource(a: ResourceAddress): string {
  const local = PREFIX[a.mode] + a.type + "." + a.name;
  return a.module.length === 0 ? local : formatModuleInstance(a.module) + "." + local;
}

/** Prints a resource instance address as Terraform does: `module.m["a"].aws_x.y[0]`. */
export function formatResourceInstance(a: ResourceInstanceAddress): string {
  return formatResource(a) + formatInstanceKey(a.key);
}
