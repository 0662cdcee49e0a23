/**
 * Registry module calls of a native `.tf` file turned into local ones, so that an example
 * root that calls `terraform-aws-modules/vpc/aws` can be planned offline by both tools from
 * a checkout of that module's repository (neither tool can reach a module registry here).
 */

/** A registry module call found in a file: the address, where its repository is expected, and the subdirectory (`//sub`). */
export interface RegistryModuleCall {
  /** The registry address as written, e.g. `terraform-aws-modules/vpc/aws//modules/vpc-endpoints`. */
  readonly source: string;
  /** The repository's name by the registry's convention, `terraform-<provider>-<name>`. */
  readonly repository: string;
  /** The subdirectory after `//`, or `""`. */
  readonly subdir: string;
}

/** What {@link rewriteRegistryModules} did to one file's text. */
export interface ModuleRewrite {
  /** The new text (the same as the input when nothing was rewritten). */
  readonly text: string;
  /** The registry calls rewritten. */
  readonly rewritten: readonly RegistryModuleCall[];
  /** The registry calls left alone because `localPath` had no checkout for them. */
  readonly missing: readonly RegistryModuleCall[];
}

const MODULE_START = /^[ \t]*module[ \t]+"[^"]*"[ \t]*\{[ \t]*$/gm;
const REGISTRY = /^(?:registry\.terraform\.io\/)?([a-z0-9][a-z0-9_-]*)\/([a-z0-9][a-z0-9_-]*)\/([a-z0-9]+)(?:\/\/(.+))?$/i;

/** The registry address `source` as a {@link RegistryModuleCall}, or undefined when it is a local path, a git URL or anything else. */
export function parseRegistrySource(source: string): RegistryModuleCall | undefined {
  const m = REGISTRY.exec(source);
  if (m === null) return undefined;
  return { source, repository: `terraform-${m[3]!.toLowerCase()}-${m[2]!}`, subdir: m[4] ?? "" };
}

/** The index just past the `}` closing the block whose `{` ends just before `from`, counting braces outside strings, comments and heredocs. */
function blockEnd(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length && depth > 0) {
    const c = text[i]!;
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      i = text.indexOf("\n", i);
      if (i < 0) return text.length;
    } else if (c === "/" && text[i + 1] === "*") {
      const e = text.indexOf("*/", i + 2);
      i = e < 0 ? text.length : e + 2;
      continue;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    } else if (c === "<" && text[i + 1] === "<") {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\n/.exec(text.slice(i, i + 200));
      if (m !== null) {
        const close = new RegExp(`^[ \\t]*${m[1]!}[ \\t]*$`, "m");
        const rest = text.slice(i + m[0].length);
        const e = close.exec(rest);
        i = e === null ? text.length : i + m[0].length + e.index + e[0].length;
        continue;
      }
    } else if (c === "{") depth++;
    else if (c === "}") depth--;
    i++;
  }
  return i;
}

/**
 * Rewrites the `module` blocks of a native `.tf` file whose `source` is a registry address:
 * `source` becomes `localPath(call)` (a relative path such as `../../.deps/terraform-aws-vpc`)
 * and the block's `version` argument is dropped (terraform refuses `version` on a local
 * source). Calls for which `localPath` returns undefined are left as they are.
 */
export function rewriteRegistryModules(text: string, localPath: (call: RegistryModuleCall) => string | undefined): ModuleRewrite {
  const rewritten: RegistryModuleCall[] = [];
  const missing: RegistryModuleCall[] = [];
  let out = "";
  let last = 0;
  for (const m of text.matchAll(MODULE_START)) {
    const start = m.index + m[0].length;
    if (start < last) continue;
    const end = blockEnd(text, start);
    const body = text.slice(start, end);
    const src = /^([ \t]*source[ \t]*=[ \t]*)"([^"]*)"/m.exec(body);
    const call = src === null ? undefined : parseRegistrySource(src[2]!);
    if (src === null || call === undefined) continue;
    const local = localPath(call);
    if (local === undefined) {
      missing.push(call);
      continue;
    }
    rewritten.push(call);
    const newBody = body
      .replace(src[0], `${src[1]!}${JSON.stringify(local)}`)
      .replace(/^[ \t]*version[ \t]*=[ \t]*"[^"]*"[ \t]*(?:#.*)?\n/m, "");
    out += text.slice(last, start) + newBody;
    last = end;
  }
  return { text: out + text.slice(last), rewritten, missing };
}
