import { evaluate, parseNativeConfig, type Diagnostic } from "@magma/hcl";
import { InstallError, InstallErrorCode } from "./install-error.js";
import type { LockedProvider } from "./install-providers.js";

/** The name of the dependency lock file in the working directory. */
export const LOCK_FILE_NAME = ".terraform.lock.hcl";

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

function lockError(d: Diagnostic | string): InstallError {
  if (typeof d === "string") return new InstallError(InstallErrorCode.BadConfig, "Invalid dependency lock file", d);
  const where = d.subject === undefined ? "" : `${d.subject.filename}:${d.subject.start.line}: `;
  return new InstallError(InstallErrorCode.BadConfig, "Failed to read dependency lock file", `${where}${d.summary}${d.detail === "" ? "" : `: ${d.detail}`}`);
}

/**
 * Reads `.terraform.lock.hcl` as Terraform does: `provider "<address>"` blocks with
 * `version`, optional `constraints`, and `hashes`.
 *
 * @throws InstallError `bad_config` naming the problem and where.
 */
export function parseLockFile(text: string, filename = LOCK_FILE_NAME): Map<string, LockedProvider> {
  const { body, diags } = parseNativeConfig(text, filename);
  const bad = diags.find((d) => d.severity === "error");
  if (bad !== undefined) throw lockError(bad);
  const { content, diags: d2 } = body.content({ blocks: [{ type: "provider", labelNames: ["source"] }] });
  const bad2 = d2.find((d) => d.severity === "error");
  if (bad2 !== undefined) throw lockError(bad2);
  const out = new Map<string, LockedProvider>();
  for (const block of content.blocks) {
    const address = block.labels[0]!;
    const { content: c, diags: d3 } = block.body.content({ attributes: [{ name: "version", required: true }, { name: "constraints" }, { name: "hashes" }] });
    const bad3 = d3.find((d) => d.severity === "error");
    if (bad3 !== undefined) throw lockError(bad3);
    const str = (name: string): string => {
      const a = c.attributes.get(name);
      if (a === undefined) return "";
      const v = evaluate(a.expr, { variables: {} }).value;
      if (!v.isKnown() || v.isNull() || v.type.kind !== "string") throw lockError(`${filename}: ${name} of provider ${JSON.stringify(address)} must be a string`);
      return v.asString();
    };
    const hashesAttr = c.attributes.get("hashes");
    const hashes: string[] = [];
    if (hashesAttr !== undefined) {
      const v = evaluate(hashesAttr.expr, { variables: {} }).value;
      if (!v.isKnown() || v.isNull() || (v.type.kind !== "tuple" && v.type.kind !== "list")) throw lockError(`${filename}: hashes of provider ${JSON.stringify(address)} must be a list of strings`);
      for (const h of v.elements()) {
        if (h.type.kind !== "string" || h.isNull()) throw lockError(`${filename}: hashes of provider ${JSON.stringify(address)} must be a list of strings`);
        hashes.push(h.asString());
      }
    }
    if (out.has(address)) throw lockError(`${filename}: provider ${JSON.stringify(address)} is locked twice`);
    out.set(address, { address, version: str("version"), constraints: str("constraints"), hashes: [...new Set(hashes)].sort() });
  }
  return out;
}

/** Writes `.terraform.lock.hcl` byte for byte as `terraform init` writes it (providers by address, attributes aligned as hclwrite aligns them). */
export function formatLockFile(providers: Iterable<LockedProvider>): string {
  const sorted = [...providers].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  let out = HEADER;
  for (const p of sorted) {
    out += `\nprovider ${JSON.stringify(p.address)} {\n`;
    if (p.constraints !== "") out += `  version     = ${JSON.stringify(p.version)}\n  constraints = ${JSON.stringify(p.constraints)}\n`;
    else out += `  version = ${JSON.stringify(p.version)}\n`;
    if (p.hashes.length > 0) out += `  hashes = [\n${p.hashes.map((h) => `    ${JSON.stringify(h)},\n`).join("")}  ]\n`;
    out += "}\n";
  }
  return out;
}
