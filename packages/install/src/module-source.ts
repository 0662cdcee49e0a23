/** A module source address, classified as terraform's `addrs.ParseModuleSource` does. */
export type ModuleSource =
  | { readonly kind: "local"; readonly path: string }
  | {
      readonly kind: "registry";
      readonly hostname: string;
      readonly namespace: string;
      readonly name: string;
      readonly provider: string;
      readonly subdir: string;
      /** The address as terraform records it (without the default registry's hostname). */
      readonly display: string;
    }
  | {
      readonly kind: "remote";
      /** The package address with its getter forced (`git::https://…`, `https://…`), without the subdirectory. */
      readonly packageAddr: string;
      readonly subdir: string;
      /** The normalised whole address (terraform's `String()`), as `modules.json` records it. */
      readonly display: string;
    };

const PART = /^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$/;
const PROVIDER = /^[0-9a-z]{1,64}$/;

/** Splits go-getter's `//subdir` off an address (after any scheme's `://`), keeping the query on the package. */
export function splitSubdir(addr: string): { pkg: string; subdir: string } {
  const schemeEnd = addr.indexOf("://");
  const from = schemeEnd >= 0 ? schemeEnd + 3 : 0;
  const i = addr.indexOf("//", from);
  if (i < 0) return { pkg: addr, subdir: "" };
  let sub = addr.slice(i + 2);
  let query = "";
  const q = sub.indexOf("?");
  if (q >= 0) {
    query = sub.slice(q);
    sub = sub.slice(0, q);
  }
  return { pkg: addr.slice(0, i) + query, subdir: sub };
}

/**
 * Classifies a module `source`: a local path (`./`, `../`), a module registry address
 * (`[host/]namespace/name/provider[//subdir]`), or a go-getter address, normalised as
 * terraform does (`github.com/o/r` → `git::https://github.com/o/r.git`, `bitbucket.org/o/r` →
 * `git::https://bitbucket.org/o/r.git`, `git@host:o/r` →
 * `git::ssh://git@host/o/r`, a bare `https://` URL kept as is).
 */
export function parseModuleSource(raw: string): ModuleSource {
  if (raw.startsWith("./") || raw.startsWith("../") || raw.startsWith(".\\") || raw.startsWith("..\\")) return { kind: "local", path: raw };
  const { pkg, subdir } = splitSubdir(raw);
  if (!pkg.includes("::") && !pkg.includes("://") && !pkg.includes("?")) {
    const parts = pkg.split("/");
    if ((parts.length === 3 || parts.length === 4) && !/^(github\.com|bitbucket\.org)$/.test(parts[0]!)) {
      const [hostname, namespace, name, provider] = parts.length === 4 ? (parts as [string, string, string, string]) : ["registry.terraform.io", parts[0]!, parts[1]!, parts[2]!];
      if (PART.test(namespace) && PART.test(name) && PROVIDER.test(provider) && (parts.length === 3 || hostname.includes("."))) {
        const host = hostname.toLowerCase();
        const base = host === "registry.terraform.io" ? `${namespace}/${name}/${provider}` : `${host}/${namespace}/${name}/${provider}`;
        return { kind: "registry", hostname: host, namespace, name, provider, subdir, display: subdir === "" ? base : `${base}//${subdir}` };
      }
    }
  }
  let packageAddr = pkg;
  let m = /^github\.com\/([^/]+)\/([^/?]+)(\?.*)?$/.exec(pkg);
  if (m !== null) packageAddr = `git::https://github.com/${m[1]!}/${m[2]!.replace(/\.git$/, "")}.git${m[3] ?? ""}`;
  // terraform's detectBitBucket: always git now (no API call), `.git` added to the path
  m = /^bitbucket\.org\/([^?]*)(\?.*)?$/.exec(pkg);
  if (m !== null) packageAddr = `git::https://bitbucket.org/${m[1]!}${m[1]!.endsWith(".git") ? "" : ".git"}${m[2] ?? ""}`;
  m = /^git@([^:]+):(.*)$/.exec(pkg);
  if (m !== null) packageAddr = `git::ssh://git@${m[1]!}/${m[2]!}`;
  if (/^(https?|file):\/\//.test(packageAddr) && /\.git(\?|$)/.test(packageAddr)) packageAddr = `git::${packageAddr}`;
  return { kind: "remote", packageAddr, subdir, display: subdir === "" ? packageAddr : insertSubdir(packageAddr, subdir) };
}

function insertSubdir(pkg: string, subdir: string): string {
  const q = pkg.indexOf("?");
  return q < 0 ? `${pkg}//${subdir}` : `${pkg.slice(0, q)}//${subdir}${pkg.slice(q)}`;
}
