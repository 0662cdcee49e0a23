import { StateError } from "../state-error.js";
import { formatInstanceKey, type InstanceKey } from "./instance-key.js";
import { parseTraversal, type TraversalStep } from "./traversal.js";

/** One step of a module instance path: `module.<name>` with an optional instance key. */
export interface ModuleStep {
  /** The module call's name. */
  readonly name: string;
  /** The instance key (`count`/`for_each`), or undefined. */
  readonly key: InstanceKey;
}

/** A module instance address (`module.a["x"].module.b`); the root module is the empty array. */
export type ModuleInstanceAddress = readonly ModuleStep[];

/** @internal Splits a traversal into its `module.` prefix and the rest (the rest's first step is a name). */
export function takeModulePrefix(text: string, steps: readonly TraversalStep[]): [ModuleStep[], TraversalStep[]] {
  const path: ModuleStep[] = [];
  let i = 0;
  while (i < steps.length) {
    const s = steps[i]!;
    if (s.kind === "index") {
      throw new StateError("invalid_address", `invalid address ${JSON.stringify(text)}: a module address prefix must be followed by a dot and a name`);
    }
    if (s.name !== "module") break;
    const nameStep = steps[i + 1];
    if (nameStep === undefined || nameStep.kind !== "attr") {
      throw new StateError("invalid_address", `invalid address ${JSON.stringify(text)}: prefix "module." must be followed by a module name`);
    }
    i += 2;
    let key: InstanceKey;
    const k = steps[i];
    if (k !== undefined && k.kind === "index") {
      key = k.key;
      i++;
    }
    path.push({ name: nameStep.name, key });
  }
  return [path, steps.slice(i)];
}

/**
 * Parses a module instance address (`module.m["a"].module.n`); "" is the root module.
 *
 * @throws StateError `invalid_address`.
 */
export function parseModuleInstance(text: string): ModuleInstanceAddress {
  if (text === "") return [];
  const [path, rest] = takeModulePrefix(text, parseTraversal(text));
  if (rest.length > 0) {
    throw new StateError(
      "invalid_address",
      path.length === 0
        ? `invalid module instance address ${JSON.stringify(text)}: it must begin with "module."`
        : `invalid module instance address ${JSON.stringify(text)}: it is followed by additional invalid content`,
    );
  }
  return path;
}

/** Prints a module instance address as Terraform does ("" for the root module). */
export function formatModuleInstance(path: ModuleInstanceAddress): string {
  let out = "";
  for (const step of path) {
    out += (out === "" ? "module." : ".module.") + step.name + formatInstanceKey(step.key);
  }
  return out;
}
