import type { Diagnostic, SourceRange, Traversal, TraversalStep } from "@magma/hcl";
import { errorDiag, rangeBetween } from "./diagnostics.js";

const RESERVED = new Set(["var", "local", "path", "each", "count", "self", "terraform", "module", "data", "resource", "ephemeral"]);

/**
 * A static address as `moved`, `removed` and `import` blocks write it: a module path
 * (`module.a["k"].module.b`), optionally followed by a resource (`aws_x.y`,
 * `data.aws_x.y`) and an instance key.
 */
export interface ConfigAddress {
  /** Module calls along the path, each with its instance key step if written. */
  readonly modules: readonly { readonly name: string; readonly key?: TraversalStep }[];
  readonly resource?: {
    readonly mode: "managed" | "data";
    readonly type: string;
    readonly name: string;
    readonly key?: TraversalStep;
  };
  readonly range: SourceRange;
}

/**
 * Parses a traversal as an address (Terraform's `addrs.ParseModuleInstance` followed by a
 * resource instance), with Terraform's diagnostics.
 */
export function parseConfigAddress(t: Traversal, diags: Diagnostic[]): ConfigAddress | undefined {
  const parts: { name: string; range: SourceRange }[] = [{ name: t.root, range: t.rootRange }];
  const steps: TraversalStep[] = [...t.steps];
  // Walk "module.NAME[KEY]" pairs.
  const modules: { name: string; key?: TraversalStep }[] = [];
  let i = -1; // index into steps of the current head (-1 = root)
  const head = (): { name: string; range: SourceRange } | undefined => {
    if (i < 0) return parts[0];
    const s = steps[i];
    return s?.kind === "attr" ? { name: s.name, range: s.range } : undefined;
  };
  while (head()?.name === "module") {
    const nameStep = steps[i + 1];
    if (nameStep?.kind !== "attr") {
      diags.push(errorDiag("Invalid address", "Prefix \"module.\" must be followed by a module name.", head()!.range));
      return undefined;
    }
    const key = steps[i + 2]?.kind === "index" ? steps[i + 2] : undefined;
    modules.push({ name: nameStep.name, ...(key !== undefined ? { key } : {}) });
    i += key !== undefined ? 3 : 2;
  }
  const h = i < steps.length ? head() : undefined;
  if (h === undefined) {
    if (i < steps.length && steps[i] !== undefined) {
      diags.push(errorDiag("Invalid address", "Module instance keys must be given in square brackets.", steps[i]!.range));
      return undefined;
    }
    return { modules, range: t.range };
  }
  let mode: "managed" | "data" = "managed";
  let typeAt = i;
  if (h.name === "data" || h.name === "resource") {
    if (h.name === "data") mode = "data";
    typeAt = i + 1;
  } else if (RESERVED.has(h.name)) {
    diags.push(
      errorDiag(
        "Invalid address",
        `The keyword ${JSON.stringify(h.name)} is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with "resource.".`,
        t.range,
      ),
    );
    return undefined;
  }
  const typeStep = typeAt < 0 ? { kind: "attr" as const, name: t.root, range: t.rootRange } : steps[typeAt];
  const nameStep = steps[typeAt + 1];
  if (typeStep?.kind !== "attr" || nameStep?.kind !== "attr") {
    diags.push(errorDiag("Invalid address", "Resource specification must include a resource type and name.", t.range));
    return undefined;
  }
  let next = typeAt + 2;
  const key = steps[next]?.kind === "index" ? steps[next] : undefined;
  if (key !== undefined) next++;
  const extra = steps[next];
  if (extra !== undefined) {
    diags.push(
      errorDiag(
        "Invalid address",
        key === undefined ? "Resource instance key must be given in square brackets." : "Unexpected extra operators after address.",
        extra.range,
      ),
    );
    return undefined;
  }
  return { modules, resource: { mode, type: typeStep.name, name: nameStep.name, ...(key !== undefined ? { key } : {}) }, range: rangeBetween(t.rootRange, t.range) };
}
