import { expressionTraversals, type Diagnostic, type Expression, type SourceRange, type Traversal } from "@magma/hcl";
import { errorDiag, rangeBetween } from "./diagnostics.js";

/**
 * What a reference refers to (Terraform's `addrs.Referenceable`): a resource (`aws_x.y`),
 * a data source (`data.aws_x.y`), `var.x`, `local.x`, `module.x`, `count.index`,
 * `each.key`/`each.value`, `path.*`, `terraform.*`, `self`, or an ephemeral resource.
 */
export type Subject =
  | { readonly kind: "resource"; readonly mode: "managed" | "data" | "ephemeral"; readonly type: string; readonly name: string }
  | { readonly kind: "var"; readonly name: string }
  | { readonly kind: "local"; readonly name: string }
  | { readonly kind: "module"; readonly name: string }
  | { readonly kind: "count"; readonly name: string }
  | { readonly kind: "each"; readonly name: string }
  | { readonly kind: "path"; readonly name: string }
  | { readonly kind: "terraform"; readonly name: string }
  | { readonly kind: "self" }
  | { readonly kind: "check"; readonly name: string };

/** A reference an expression makes (Terraform's `addrs.Reference`). */
export interface Reference {
  readonly subject: Subject;
  /** The range of the part of the traversal naming the subject (`var.a` of `var.a.b`). */
  readonly range: SourceRange;
  /** The steps after the subject (attribute and index accesses). */
  readonly remaining: Traversal["steps"];
  /** The whole traversal. */
  readonly traversal: Traversal;
}

/** `aws_x.y`, `data.aws_x.y`, `var.x`, `module.m`… as Terraform prints a subject. */
export function subjectString(s: Subject): string {
  switch (s.kind) {
    case "resource":
      return `${s.mode === "data" ? "data." : s.mode === "ephemeral" ? "ephemeral." : ""}${s.type}.${s.name}`;
    case "self":
      return "self";
    default:
      return `${s.kind}.${s.name}`;
  }
}

function attrName(t: Traversal, i: number): { name: string; range: SourceRange } | undefined {
  const s = t.steps[i];
  return s?.kind === "attr" ? { name: s.name, range: s.range } : undefined;
}

/**
 * Parses a traversal into a reference as Terraform's `addrs.ParseRef` does; a diagnostic
 * when the traversal cannot be one (e.g. `var` alone, `data.x`).
 */
export function parseRef(t: Traversal): { ref?: Reference; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const root = t.root;
  const make = (subject: Subject, n: number): Reference => {
    const last = n === 0 ? t.rootRange : t.steps[n - 1]!.range;
    return { subject, range: rangeBetween(t.rootRange, last), remaining: t.steps.slice(n), traversal: t };
  };
  const named = (kind: "var" | "local" | "module" | "count" | "each" | "path" | "terraform" | "check", what: string): { ref?: Reference; diags: Diagnostic[] } => {
    const a = attrName(t, 0);
    if (a === undefined) {
      const step = t.steps[0];
      diags.push(
        errorDiag(
          "Invalid reference",
          step === undefined ? `The ${JSON.stringify(root)} object cannot be accessed directly. Instead, access one of its attributes.` : `The ${JSON.stringify(root)} object does not support this operation.`,
          step === undefined ? t.rootRange : step.range,
        ),
      );
      return { diags };
    }
    void what;
    return { ref: make({ kind, name: a.name }, 1), diags };
  };
  switch (root) {
    case "var":
      return named("var", "input variable");
    case "local":
      return named("local", "local value");
    case "module": {
      const r = named("module", "module call");
      if (r.ref === undefined) return r;
      // A module output reference covers the output name (`module.m.out`, `module.m[0].out`).
      let n = 1;
      if (t.steps[n]?.kind === "index") n++;
      if (t.steps[n]?.kind === "attr") n++;
      else n = 1;
      return { ref: make(r.ref.subject, n), diags: r.diags };
    }
    case "count":
      return named("count", "count");
    case "each":
      return named("each", "each");
    case "path":
      return named("path", "path");
    case "terraform":
      return named("terraform", "terraform");
    case "self":
      return { ref: make({ kind: "self" }, 0), diags };
    case "data":
    case "ephemeral": {
      const ty = attrName(t, 0);
      const nm = attrName(t, 1);
      if (ty === undefined || nm === undefined) {
        diags.push(
          errorDiag(
            "Invalid reference",
            root === "data"
              ? `The "data" object must be followed by two attribute names: the data source type and the resource name.`
              : `The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.`,
            t.range,
          ),
        );
        return { diags };
      }
      return { ref: make({ kind: "resource", mode: root === "data" ? "data" : "ephemeral", type: ty.name, name: nm.name }, 2), diags };
    }
    case "resource": {
      const ty = attrName(t, 0);
      const nm = attrName(t, 1);
      if (ty === undefined || nm === undefined) {
        diags.push(errorDiag("Invalid reference", `The "resource" object must be followed by two attribute names: the resource type and the resource name.`, t.range));
        return { diags };
      }
      return { ref: make({ kind: "resource", mode: "managed", type: ty.name, name: nm.name }, 2), diags };
    }
    default: {
      const nm = attrName(t, 0);
      if (nm === undefined) {
        diags.push(
          errorDiag("Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.", t.range),
        );
        return { diags };
      }
      return { ref: make({ kind: "resource", mode: "managed", type: root, name: nm.name }, 1), diags };
    }
  }
}

/** The references an expression makes (Terraform's `lang.ReferencesInExpr`), with parse problems. */
export function referencesInExpr(expr: Expression | undefined): { refs: Reference[]; diags: Diagnostic[] } {
  const refs: Reference[] = [];
  const diags: Diagnostic[] = [];
  if (expr === undefined) return { refs, diags };
  for (const t of expressionTraversals(expr)) {
    const r = parseRef(t);
    diags.push(...r.diags);
    if (r.ref !== undefined) refs.push(r.ref);
  }
  return { refs, diags };
}
