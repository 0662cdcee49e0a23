import { execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseNativeConfig, type Diagnostic } from "@magma/hcl";
import { formatTerraformSource } from "./format-source.js";

/** The extensions `terraform fmt` formats (its `fmtSupportedExts`). */
export const FMT_EXTENSIONS = [".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"] as const;

/** The settings of one `fmt` run (terraform's flags, after its adjustments for stdin and `-check`). */
export interface FmtSettings {
  /** Print the names of files whose formatting differs. */
  readonly list: boolean;
  /** Write the formatted files. */
  readonly write: boolean;
  /** Print a unified diff of each change. */
  readonly diff: boolean;
  /** Descend into subdirectories. */
  readonly recursive: boolean;
}

/** An error of a `fmt` run: a diagnostic with no source range, or HCL's parse diagnostics. */
export type FmtDiagnostic = Diagnostic;

/** Where `fmt` reads and writes: the working directory, and the output stream (terraform's `UiWriter`). */
export interface FmtTarget {
  readonly cwd: string;
  /** Receives every output chunk (terraform's `cli.UiWriter`: one trailing newline per chunk). */
  write(text: string): void;
  /** Synthetic sources (stdin) for diagnostics' snippets. */
  readonly sources: Map<string, string>;
}

/** Terraform's `configs.IsIgnoredFile`: hidden files, editor backups and emacs lock files. */
function isIgnoredFile(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"));
}

function errorDiag(summary: string): FmtDiagnostic {
  return { severity: "error", summary, detail: "" };
}

/** The path as terraform's `WorkingDir.NormalizePath` prints it: relative to the working directory. */
function normalizePath(cwd: string, p: string): string {
  const rel = relative(cwd, resolve(cwd, p));
  return rel === "" ? "." : rel;
}

/** `diff -u` of the two texts, labelled `old/PATH` and `new/PATH`, as terraform runs it. */
function bytesDiff(before: string, after: string, path: string): string {
  const dir = mkdtempSync(join(tmpdir(), "magma-fmt-"));
  try {
    const a = join(dir, "a");
    const b = join(dir, "b");
    writeFileSync(a, before);
    writeFileSync(b, after);
    try {
      return execFileSync("diff", [`--label=old/${path}`, `--label=new/${path}`, "-u", a, b], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      const out = (e as { stdout?: string; stderr?: string }).stdout ?? "";
      if (out.length > 0) return out;
      throw e;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Formats one file's text (terraform's `processFile`): parse check, list, write, diff or print. */
export function fmtFile(path: string, src: string, settings: FmtSettings, target: FmtTarget, absPath?: string): FmtDiagnostic[] {
  const text = src;
  if (absPath === undefined) target.sources.set(path, text);
  // hclsyntax skips a leading byte-order mark (and the formatted text drops it).
  const parsed = parseNativeConfig(text.replace(/^\uFEFF/, ""), path);
  if (parsed.diags.some((d) => d.severity === "error")) return parsed.diags;
  const result = formatTerraformSource(text);
  if (result !== text) {
    if (settings.list) target.write(`${path}\n`);
    if (settings.write && absPath !== undefined) {
      try {
        writeFileSync(absPath, result);
      } catch {
        return [errorDiag(`Failed to write ${path}`)];
      }
    }
    if (settings.diff) {
      try {
        target.write(bytesDiff(text, result, path));
      } catch (e) {
        return [errorDiag(`Failed to generate diff for ${path}: ${e instanceof Error ? e.message : String(e)}`)];
      }
    }
  }
  if (!settings.list && !settings.write && !settings.diff) target.write(result);
  return [];
}

function fmtPathFile(cwd: string, path: string, settings: FmtSettings, target: FmtTarget): FmtDiagnostic[] {
  const abs = resolve(cwd, path);
  let src: string;
  try {
    src = readFileSync(abs, "utf8");
  } catch {
    return [errorDiag(`Failed to read file ${path}`)];
  }
  return fmtFile(normalizePath(cwd, path), src, settings, target, abs);
}

function fmtDir(path: string, settings: FmtSettings, target: FmtTarget): FmtDiagnostic[] {
  const diags: FmtDiagnostic[] = [];
  let names: string[];
  try {
    names = readdirSync(resolve(target.cwd, path)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  } catch (e) {
    const code = (e as { code?: string }).code;
    return [errorDiag(code === "ENOENT" ? `There is no configuration directory at ${path}` : `Cannot read directory ${path}`)];
  }
  for (const name of names) {
    if (isIgnoredFile(name)) continue;
    const sub = join(path, name);
    let st: Stats;
    try {
      st = lstatSync(resolve(target.cwd, sub));
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (settings.recursive) diags.push(...fmtDir(sub, settings, target));
      continue;
    }
    if (FMT_EXTENSIONS.some((ext) => name.endsWith(ext))) diags.push(...fmtPathFile(target.cwd, sub, settings, target));
  }
  return diags;
}

/**
 * Terraform's `FmtCommand.fmt`: formats the given files and directories (recursively with
 * `recursive`), or the text of stdin when `paths` is undefined, and returns the errors (a
 * missing path stops the run; unreadable or unparsable files are reported and skipped).
 */
export function runFmt(paths: readonly string[] | undefined, stdin: () => string, settings: FmtSettings, target: FmtTarget): FmtDiagnostic[] {
  if (paths === undefined) return fmtFile("<stdin>", stdin(), settings, target);
  const diags: FmtDiagnostic[] = [];
  for (const given of paths) {
    const path = normalizePath(target.cwd, given);
    let st: Stats;
    try {
      st = statSync(resolve(target.cwd, path));
    } catch {
      diags.push(errorDiag(`No file or directory at ${path}`));
      return diags;
    }
    if (st.isDirectory()) diags.push(...fmtDir(path, settings, target));
    else if (FMT_EXTENSIONS.some((ext) => path.endsWith(ext))) diags.push(...fmtPathFile(target.cwd, path, settings, target));
    else diags.push(errorDiag("Only .tf, .tfvars, and .tftest.hcl files can be processed with terraform fmt"));
  }
  return diags;
}
