import { attr, bare, bareList, bareMap, block, ex, lit, renderJson, renderNative, type Body, type BodyItem, type Expr, type TopBlock } from "./hcl-ast.js";
import type { Feature, Mutation, Repeat, Source, StackSpec, VariableSpec } from "./stack-spec.js";

/** Which syntax a stack's files are written in. */
export type Syntax = "native" | "json";

/** One feature alive at a step: its identity, its current name and the names it had. */
export interface LiveFeature {
  readonly id: number;
  readonly feature: Feature;
  /** Names, oldest first; the last is the current one (renames add `moved` blocks between them). */
  readonly names: readonly string[];
  /** The step it appeared in (import blocks are written only then). */
  readonly born: number;
}

/** The configuration of one step, before rendering. */
export interface StepModel {
  readonly step: number;
  readonly variable: VariableSpec | null;
  readonly alias: boolean;
  readonly live: readonly LiveFeature[];
  /** Addresses (without the prefix) of features forgotten this step: `removed { destroy = false }`. */
  readonly forgotten: readonly LiveFeature[];
}

const SHORT: Record<Feature["kind"], string> = { value: "v", thing: "t", legacy: "g", lookup: "d", module: "m", local: "l", output: "o", check: "c" };

function eligible(live: readonly LiveFeature[], op: Mutation["op"]): LiveFeature[] {
  const kinds: Record<string, readonly Feature["kind"][]> = {
    reseed: ["value", "thing", "legacy", "lookup", "module", "local"],
    repeat: ["value", "thing", "module"],
    rename: ["value", "thing", "legacy", "module", "lookup"],
    remove: ["value", "thing", "legacy", "lookup", "module", "local", "output", "check"],
    flip: ["value", "thing", "output", "check"],
  };
  const k = kinds[op] ?? [];
  return live.filter((l) => k.includes(l.feature.kind));
}

function reseed(f: Feature, s: string): Feature {
  switch (f.kind) {
    case "value":
    case "lookup":
    case "module":
    case "local":
      return { ...f, src: { kind: "lit", s } };
    case "thing":
      return { ...f, desc: s };
    case "legacy":
      return { ...f, label: f.label.toLowerCase() === s.toLowerCase() ? s.toUpperCase() : s };
    default:
      return f;
  }
}

function flip(f: Feature): Feature {
  switch (f.kind) {
    case "value":
      return { ...f, triggers: f.triggers === null ? "flipped" : null };
    case "thing":
      return { ...f, effect: f.effect === "allow" ? "deny" : "allow" };
    case "output":
      return { ...f, form: f.form === "length" ? "cond" : "length" };
    case "check":
      return { ...f, pass: !f.pass };
    default:
      return f;
  }
}

/** The step models of a stack: its first configuration, then each step's mutations applied in turn. */
export function stackSteps(spec: StackSpec): StepModel[] {
  let nextId = 0;
  let variable = spec.variable;
  let live: LiveFeature[] = spec.features.map((feature) => {
    const id = nextId++;
    return { id, feature, names: [`${SHORT[feature.kind]}${id}`], born: 0 };
  });
  const steps: StepModel[] = [{ step: 0, variable, alias: spec.alias, live, forgotten: [] }];
  spec.steps.forEach((mutations, i) => {
    const step = i + 1;
    const forgotten: LiveFeature[] = [];
    for (const m of mutations) {
      if (m.op === "add") {
        const id = nextId++;
        live = [...live, { id, feature: m.feature, names: [`${SHORT[m.feature.kind]}${id}`], born: step }];
        continue;
      }
      if (m.op === "variable") {
        if (variable !== null) variable = { ...variable, value: m.value };
        continue;
      }
      const pool = eligible(live, m.op);
      if (pool.length === 0) continue;
      const target = pool[m.pick % pool.length]!;
      const replace = (l: LiveFeature): void => {
        live = live.map((x) => (x.id === target.id ? l : x));
      };
      switch (m.op) {
        case "reseed":
          replace({ ...target, feature: reseed(target.feature, m.s) });
          break;
        case "repeat":
          if ("repeat" in target.feature) replace({ ...target, feature: { ...target.feature, repeat: m.repeat } as Feature });
          break;
        case "rename": {
          const base = target.names[0]!;
          // Data sources cannot be moved: a renamed one is a new data source.
          const names = target.feature.kind === "lookup" ? [`${base}r${target.names.length}`] : [...target.names, `${base}r${target.names.length}`];
          replace({ ...target, names });
          break;
        }
        case "remove":
          live = live.filter((x) => x.id !== target.id);
          if (m.forget && ["value", "thing", "legacy", "module"].includes(target.feature.kind)) forgotten.push(target);
          break;
        case "flip":
          replace({ ...target, feature: flip(target.feature) });
          break;
      }
    }
    steps.push({ step, variable, alias: spec.alias, live, forgotten });
  });
  return steps;
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The source address type of a feature's resource (`undefined` for non-resources). */
function resourceType(f: Feature): string | undefined {
  switch (f.kind) {
    case "value":
      return "testbed_value";
    case "thing":
      return "testbed_thing";
    case "legacy":
      return "testbed_legacy";
    default:
      return undefined;
  }
}

function repeatOf(f: Feature): Repeat {
  return "repeat" in f ? f.repeat : { kind: "one" };
}

/** The address of a live feature (with the prefix), for references and meta-arguments. */
function address(l: LiveFeature, name: string): string {
  const f = l.feature;
  const t = resourceType(f);
  if (t !== undefined) return `${t}.${name}`;
  if (f.kind === "module") return `module.${name}`;
  if (f.kind === "lookup") return `data.testbed_lookup.${name}`;
  if (f.kind === "local") return `local.${name}`;
  return name;
}

function refAttr(f: Feature, attr: "output" | "token" | "id"): string {
  switch (f.kind) {
    case "value":
      return attr;
    case "thing":
      return attr === "output" ? "fingerprint" : "id";
    case "legacy":
      return attr === "output" ? "label" : "id";
    case "module":
      return "out";
    case "lookup":
      return "value";
    default:
      return attr;
  }
}

/** A template string in both syntaxes: parts are literal text or `${…}` interpolations. */
function tpl(parts: readonly (string | { readonly i: string })[]): Expr {
  const content = parts.map((p) => (typeof p === "string" ? p : `\${${p.i}}`)).join("");
  // Native: literal text escaped as a string literal's, interpolations as written (quotes inside
  // an interpolation are the expression's own, not the template's).
  const native = parts.map((p) => (typeof p === "string" ? JSON.stringify(p).slice(1, -1) : `\${${p.i}}`)).join("");
  return { native: `"${native}"`, json: content };
}

class Renderer {
  readonly p: string;
  readonly model: StepModel;
  constructor(prefix: string, model: StepModel) {
    this.p = prefix;
    this.model = model;
  }
  name(l: LiveFeature): string {
    return `${this.p}${l.names[l.names.length - 1]!}`;
  }
  addr(l: LiveFeature): string {
    return address(l, this.name(l));
  }
  /** The live features before `self` that references may point at. */
  before(self: LiveFeature, kinds: readonly Feature["kind"][]): LiveFeature[] {
    const i = this.model.live.findIndex((x) => x.id === self.id);
    return this.model.live.slice(0, i < 0 ? this.model.live.length : i).filter((x) => kinds.includes(x.feature.kind));
  }
  /** A string expression of one attribute of a referenced feature, whatever its repetition. */
  refString(t: LiveFeature, attrName: string): string {
    const a = this.addr(t);
    switch (repeatOf(t.feature).kind) {
      case "one":
        return `${a}.${attrName}`;
      case "count":
        return `join(",", ${a}[*].${attrName})`;
      case "each":
        return `join(",", [for k, v in ${a} : v.${attrName}])`;
    }
  }
  /** The instances of a referenced feature as a collection expression. */
  collection(t: LiveFeature): string {
    return repeatOf(t.feature).kind === "one" ? `[${this.addr(t)}]` : this.addr(t);
  }
  /** A string-valued expression (native text) for a source, relative to the feature using it. */
  source(src: Source, self: LiveFeature): string {
    switch (src.kind) {
      case "lit":
        return JSON.stringify(src.s);
      case "var": {
        const v = this.model.variable;
        if (v === null) return JSON.stringify("novar");
        const ref = `var.${this.p}var`;
        switch (v.type) {
          case "string":
            return ref;
          case "number":
            return `tostring(${ref})`;
          case "list":
            return `join("-", ${ref})`;
          case "object":
            return `"\${${ref}.a}-\${${ref}.b}"`;
        }
        break;
      }
      case "local": {
        const pool = this.before(self, ["local"]);
        if (pool.length === 0) return JSON.stringify("nolocal");
        return `local.${this.name(pool[src.pick % pool.length]!)}`;
      }
      case "ref": {
        const pool = this.before(self, ["value", "thing", "module", "lookup", "legacy"]);
        if (pool.length === 0) return JSON.stringify("noref");
        const t = pool[src.pick % pool.length]!;
        return this.refString(t, refAttr(t.feature, src.attr));
      }
      case "fn":
        switch (src.fn) {
          case "upper":
            return `upper(${JSON.stringify(src.s)})`;
          case "digest":
            return `provider::testbed::digest(${JSON.stringify(src.s)})`;
          case "format":
            return `format("%s-%d", ${JSON.stringify(src.s)}, ${src.s.length})`;
          case "join_sorted":
            return `provider::testbed::join_sorted([${JSON.stringify(src.s)}, "b"], "a")`;
        }
    }
    return JSON.stringify("unreachable");
  }
  /** The source, suffixed per instance when the feature repeats. */
  instanceSource(src: Source, self: LiveFeature): Expr {
    const s = this.source(src, self);
    switch (repeatOf(self.feature).kind) {
      case "one":
        return src.kind === "lit" ? lit(src.s) : ex(s);
      case "count":
        return tpl([{ i: s }, "-", { i: "count.index" }]);
      case "each":
        return tpl([{ i: s }, "-", { i: "each.key" }]);
    }
  }
  repeatItems(f: Feature): BodyItem[] {
    const r = repeatOf(f);
    if (r.kind === "count") return [attr("count", lit(r.n))];
    if (r.kind === "each") return [attr("for_each", ex(`toset(${JSON.stringify(r.keys)})`))];
    return [];
  }
  providerItems(aliased: boolean): BodyItem[] {
    return aliased && this.model.alias ? [attr("provider", bare("testbed.alt"))] : [];
  }

  feature(l: LiveFeature): TopBlock[] {
    const f = l.feature;
    const name = this.name(l);
    switch (f.kind) {
      case "value": {
        const body: BodyItem[] = [...this.repeatItems(f), ...this.providerItems(f.alias), attr("input", this.instanceSource(f.src, l))];
        if (f.triggers !== null) body.push(attr("triggers", lit({ k: f.triggers })));
        if (f.secretWo !== null) body.push(attr("secret_wo", lit(f.secretWo)));
        const prev = this.before(l, ["value", "thing", "legacy"]);
        if (f.dependsOnPrev && prev.length > 0) body.push(attr("depends_on", bareList([this.addr(prev[prev.length - 1]!)])));
        const lc: BodyItem[] = [];
        if (f.cbd) lc.push(attr("create_before_destroy", lit(true)));
        if (f.ignoreInput) lc.push(attr("ignore_changes", bareList(["input"])));
        if (f.replaceOnPrev && prev.length > 0) lc.push(attr("replace_triggered_by", bareList([this.addr(prev[prev.length - 1]!)])));
        if (f.postcondition) lc.push(block("postcondition", [], [attr("condition", ex(`self.output != ""`)), attr("error_message", lit(`${name} output is empty.`))]));
        if (lc.length > 0) body.push(block("lifecycle", [], lc));
        const out: TopBlock[] = [{ type: "resource", labels: ["testbed_value", name], body }];
        if (f.importIt && f.src.kind === "lit" && f.repeat.kind === "one" && l.born === this.model.step && l.names.length === 1) {
          out.push({ type: "import", labels: [], body: [attr("to", bare(`testbed_value.${name}`)), attr("id", lit(f.src.s))] });
        }
        return out;
      }
      case "thing": {
        const r = repeatOf(f);
        const nameExpr = r.kind === "one" ? lit(`${this.p}${f.seed}`) : tpl([`${this.p}${f.seed}-`, { i: r.kind === "count" ? "count.index" : "each.key" }]);
        const body: BodyItem[] = [...this.repeatItems(f), ...this.providerItems(f.alias), attr("name", nameExpr)];
        if (f.desc !== null) body.push(attr("description", lit(f.desc)));
        if (f.size !== null) body.push(attr("size", lit(f.size)));
        if (Object.keys(f.tags).length > 0) body.push(attr("tags", lit(f.tags)));
        if (f.vanish) body.push(attr("vanish", lit(true)));
        if (f.nested) {
          body.push(attr("props", lit({ color: f.seed })));
          body.push(attr("endpoints", ex(`[for p in ${JSON.stringify(f.rules)} : { host = "h\${p}", port = p }]`)));
          body.push(attr("members", lit(f.targets.map((u) => ({ user: u })))));
          body.push(attr("named", lit(Object.fromEntries(Object.entries(f.slots).map(([k, v]) => [k, { value: v }])))));
        }
        if (f.dynamicRules) {
          body.push(block("dynamic", ["rule"], [attr("for_each", lit([...f.rules])), block("content", [], [attr("port", ex("rule.value")), attr("note", ex(`"n\${rule.key}"`))])]));
        } else {
          for (const port of f.rules) body.push(block("rule", [], [attr("port", lit(port))]));
        }
        if (f.effect !== null) body.push(block("policy", [], [attr("effect", lit(f.effect))]));
        for (const t of f.targets) body.push(block("target", [], [attr("addr", lit(t))]));
        for (const [k, v] of Object.entries(f.slots)) body.push(block("slot", [k], [attr("value", lit(v))]));
        if (f.owner !== null) body.push(block("meta", [], [attr("owner", lit(f.owner))]));
        return [{ type: "resource", labels: ["testbed_thing", name], body }];
      }
      case "legacy":
        return [{ type: "resource", labels: ["testbed_legacy", name], body: [attr("label", lit(f.label))] }];
      case "lookup":
        return [{ type: "data", labels: ["testbed_lookup", name], body: [attr("key", ex(this.source(f.src, l))), attr("width", lit(f.width))] }];
      case "module": {
        const body: BodyItem[] = [attr("source", lit(`./modules/${this.p}m${l.id}`)), ...this.repeatItems(f), attr("in", this.instanceSource(f.src, l))];
        if (f.alias && this.model.alias) body.push(attr("providers", bareMap({ testbed: "testbed.alt" })));
        return [{ type: "module", labels: [name], body }];
      }
      case "local":
        return [{ type: "locals", labels: [], body: [attr(name, tpl([{ i: this.source(f.src, l) }, "-local"]))] }];
      case "output": {
        const pool = this.before(l, ["value", "thing", "module", "lookup", "legacy"]);
        let value: Expr;
        if (pool.length === 0) value = lit("empty");
        else {
          const t = pool[f.pick % pool.length]!;
          const a = refAttr(t.feature, "output");
          const coll = this.collection(t);
          switch (f.form) {
            case "direct":
              value = ex(this.refString(t, a));
              break;
            case "for":
              value = ex(`[for k, v in ${coll} : upper(v.${a})]`);
              break;
            case "length":
              value = ex(`length(${coll})`);
              break;
            case "digest":
              value = ex(`provider::testbed::digest(${this.refString(t, a)})`);
              break;
            case "cond":
              value = ex(`length(${coll}) > 1 ? "many" : "few"`);
              break;
            case "splat":
              value = ex(repeatOf(t.feature).kind === "each" ? `values(${this.addr(t)})[*].${a}` : `${this.addr(t)}[*].${a}`);
              break;
          }
        }
        const body: BodyItem[] = [attr("value", value)];
        if (f.sensitive) body.push(attr("sensitive", lit(true)));
        if (f.precondition && pool.length > 0) {
          const coll = this.collection(pool[f.pick % pool.length]!);
          body.push(block("precondition", [], [attr("condition", ex(`length(${coll}) >= 0`)), attr("error_message", lit(`${name} has no instances.`))]));
        }
        return [{ type: "output", labels: [name], body }];
      }
      case "check": {
        const pool = this.before(l, ["value", "thing", "module", "lookup", "legacy"]);
        // A condition must refer to something: with nothing before it, the check is left out.
        if (pool.length === 0) return [];
        const coll = this.collection(pool[f.pick % pool.length]!);
        const condition = f.pass ? `length(${coll}) >= 0` : `length(${coll}) < 0`;
        return [{ type: "check", labels: [name], body: [block("assert", [], [attr("condition", ex(condition)), attr("error_message", lit(`${name} failed.`))])] }];
      }
    }
  }

  variableBlocks(v: VariableSpec): TopBlock {
    const body: BodyItem[] = [];
    switch (v.type) {
      case "string":
        body.push(attr("type", bare("string")), attr("default", lit(v.value)));
        break;
      case "number":
        body.push(attr("type", bare("number")), attr("default", lit(v.value.length)));
        break;
      case "list":
        body.push(attr("type", bare("list(string)")), attr("default", lit([v.value, `${v.value}2`])));
        break;
      case "object":
        body.push(attr("type", bare("object({ a = string, b = optional(number, 7) })")), attr("default", lit({ a: v.value })));
        break;
    }
    if (v.sensitive) body.push(attr("sensitive", lit(true)));
    if (v.validation) {
      const ref = `var.${this.p}var`;
      const cond = v.type === "number" ? `${ref} >= 0` : v.type === "object" ? `length(${ref}.a) > 0` : `length(${ref}) > 0`;
      body.push(block("validation", [], [attr("condition", ex(cond)), attr("error_message", lit("The value must not be empty."))]));
    }
    return { type: "variable", labels: [`${this.p}var`], body };
  }

  blocks(): TopBlock[] {
    const out: TopBlock[] = [];
    if (this.model.variable !== null) out.push(this.variableBlocks(this.model.variable));
    for (const l of this.model.live) {
      out.push(...this.feature(l));
      for (let i = 0; i + 1 < l.names.length; i++) {
        out.push({ type: "moved", labels: [], body: [attr("from", bare(address(l, `${this.p}${l.names[i]!}`))), attr("to", bare(address(l, `${this.p}${l.names[i + 1]!}`)))] });
      }
    }
    for (const l of this.model.forgotten) {
      out.push({ type: "removed", labels: [], body: [attr("from", bare(this.addr(l))), block("lifecycle", [], [attr("destroy", lit(false))])] });
    }
    return out;
  }
}

/** The `terraform { required_providers }` block every module of a stack needs. */
export const REQUIRED_PROVIDERS: TopBlock = {
  type: "terraform",
  labels: [],
  body: [block("required_providers", [], [attr("testbed", lit({ source: "magma/testbed" }))])],
};

function moduleBlocks(lookup: boolean): TopBlock[] {
  const blocks: TopBlock[] = [
    REQUIRED_PROVIDERS,
    { type: "variable", labels: ["in"], body: [attr("type", bare("string"))] },
    { type: "resource", labels: ["testbed_value", "v"], body: [attr("input", ex("var.in"))] },
    { type: "output", labels: ["out"], body: [attr("value", ex("testbed_value.v.output"))] },
  ];
  if (lookup) {
    blocks.push(
      { type: "data", labels: ["testbed_lookup", "d"], body: [attr("key", ex("testbed_value.v.output")), attr("width", lit(1))] },
      { type: "output", labels: ["items"], body: [attr("value", ex("data.testbed_lookup.d.items"))] },
    );
  }
  return blocks;
}

/** The files of one step of a stack (paths relative to the root module), in one syntax. */
export function renderStep(model: StepModel, prefix: string, syntax: Syntax): Record<string, string> {
  const r = new Renderer(prefix, model);
  const render = syntax === "json" ? renderJson : renderNative;
  const ext = syntax === "json" ? ".tf.json" : ".tf";
  const files: Record<string, string> = { [`${prefix}stack${ext}`]: render(r.blocks()) };
  for (const l of model.live) {
    if (l.feature.kind === "module") files[`modules/${prefix}m${l.id}/main${ext}`] = render(moduleBlocks(l.feature.lookup));
  }
  return files;
}

/** The names of the module calls of a step (a change needs `init` again). */
export function moduleCalls(model: StepModel, prefix: string): string[] {
  const r = new Renderer(prefix, model);
  return model.live.filter((l) => l.feature.kind === "module").map((l) => r.name(l));
}

/**
 * The root module's own files: required providers, the default testbed provider and its alias
 * `testbed.alt` (prefix `alt-`), shared by the stacks of a batch: each provider configuration
 * is a provider process per command in both tools, so stacks do not declare their own.
 */
export function rootFiles(syntax: Syntax): Record<string, string> {
  const blocks: TopBlock[] = [
    REQUIRED_PROVIDERS,
    { type: "provider", labels: ["testbed"], body: [] as Body },
    { type: "provider", labels: ["testbed"], body: [attr("alias", lit("alt")), attr("prefix", lit("alt-"))] },
  ];
  return syntax === "json" ? { "root.tf.json": renderJson(blocks) } : { "root.tf": renderNative(blocks) };
}
