import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { decompress } from "./decompress.js";
import { goXmlLeadingTextError } from "./go-xml-text-error.js";
import { httpDownloadBuffer, httpGet, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { unpackTar } from "./tar-archive.js";
import { unpackZip } from "./zip-archive.js";

function git(args: readonly string[], cwd?: string, sshKeyFile?: string): Promise<void> {
  const env: Record<string, string | undefined> = { ...process.env, GIT_TERMINAL_PROMPT: "0" };
  // go-getter's setupGitEnv: `-i <key file>` after the GIT_SSH_COMMAND in force (default `ssh`)
  if (sshKeyFile !== undefined) env["GIT_SSH_COMMAND"] = `${env["GIT_SSH_COMMAND"] || "ssh"} -i ${sshKeyFile}`;
  return new Promise((resolve, reject) => {
    execFile("git", [...args], { ...(cwd !== undefined ? { cwd } : {}), env, maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) => {
      if (err === null) resolve();
      else reject(new StepError(InstallErrorCode.Download, `error downloading '${args[args.length - 2] ?? ""}': /usr/bin/git exited with ${String((err as { code?: number }).code ?? 1)}: ${String(stderr).trim()}`));
    });
  });
}

/**
 * terraform's decompressors (`internal/getmodules`' `goGetterDecompressors`) and the
 * unpacking each selects: a URL path ending `.<key>` (the longest key wins, as in go-getter)
 * or `?archive=<key>`. A plain `.tar` is not one of them: terraform asks such a URL for its
 * `X-Terraform-Get`, as any other. `gz`, `bz2` and `xz` decompress to a single file, which a
 * module directory cannot be.
 */
const DECOMPRESSORS: Readonly<Record<string, string>> = {
  bz2: "bz2",
  tbz2: "tar.bz2",
  "tar.bz2": "tar.bz2",
  "tar.tbz2": "tar.bz2",
  gz: "gz",
  "tar.gz": "tar.gz",
  tgz: "tar.gz",
  xz: "xz",
  "tar.xz": "tar.xz",
  txz: "tar.xz",
  zip: "zip",
};

/** Go's `url.QueryEscape`. */
function goQueryEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replaceAll("%20", "+");
}

/**
 * A URL as go-getter's client names it in an error (`RedactURL`): its query re-encoded as Go
 * does (keys sorted, `checksum` taken out), a password as `redacted`.
 */
function goRedactedUrl(u: URL): string {
  const r = new URL(u);
  if (r.password !== "") r.password = "redacted";
  const entries = [...r.searchParams].filter(([k]) => k !== "checksum");
  const keys = [...new Set(entries.map(([k]) => k))].sort();
  const query = keys.flatMap((k) => entries.filter(([kk]) => kk === k).map(([, v]) => `${goQueryEscape(k)}=${goQueryEscape(v)}`)).join("&");
  r.search = "";
  return query === "" ? r.href : `${r.href}?${query}`;
}

/** The unpacking a URL selects (`""`: none), as go-getter's `Client.Get` chooses its decompressor. */
function archiveKind(u: URL, param: string): string {
  if (param !== "") return Object.hasOwn(DECOMPRESSORS, param) ? DECOMPRESSORS[param]! : "";
  let best = "";
  for (const k of Object.keys(DECOMPRESSORS)) if (u.pathname.endsWith(`.${k}`) && k.length > best.length) best = k;
  return best === "" ? "" : DECOMPRESSORS[best]!;
}

/**
 * The key of a `?sshkey=` (base64, as go-getter decodes it) written to a file only its owner
 * can read, in a directory of its own; `undefined` without one.
 *
 * @throws StepError `bad_config` for a key that is not base64 (Go's words).
 */
function writeSshKey(sshKey: string): string | undefined {
  if (sshKey === "") return undefined;
  const bad = /[^A-Za-z0-9+/=]/.exec(sshKey) ?? (sshKey.length % 4 !== 0 ? { index: sshKey.length - (sshKey.length % 4) } : /=[^=]/.exec(sshKey));
  if (bad !== null) throw new StepError(InstallErrorCode.BadConfig, `illegal base64 data at input byte ${bad.index}`);
  const dir = mkdtempSync(join(tmpdir(), "go-getter"));
  const file = join(dir, "key");
  writeFileSync(file, Buffer.from(sshKey, "base64"), { mode: 0o600 });
  return file;
}

/**
 * Fetches a module package into `dir` (which must not exist) as go-getter does for the
 * sources terraform supports: `git::` (https, ssh, file; `?ref=`, `?depth=`, `?sshkey=`) with
 * the git command, `https://` archives (`.zip`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tbz2`,
 * `.tar.xz`, `.txz`, or `?archive=`; not a plain `.tar`, as terraform), and other
 * `https://` URLs through their `X-Terraform-Get` header.
 *
 * @throws StepError `download` for a failed fetch, `bad_config` for getters magma does not
 *   have (`s3::`, `gcs::`, `hg::`), `bad_archive` for an archive that would write outside `dir`.
 */
export async function fetchModulePackage(packageAddr: string, dir: string, http: HttpOptions, depth = 0): Promise<void> {
  if (depth > 10) throw new StepError(InstallErrorCode.Download, "too many X-Terraform-Get redirects");
  const forced = /^([a-z0-9]+)::(.*)$/s.exec(packageAddr);
  const getter = forced?.[1] ?? "";
  const rest = forced?.[2] ?? packageAddr;
  if (getter === "s3" || getter === "gcs" || getter === "hg") {
    throw new StepError(InstallErrorCode.BadConfig, `magma does not support the ${getter}:: module source (only local paths, module registries, git::, github.com/… and http(s) archives)`);
  }
  mkdirSync(dirname(dir), { recursive: true });
  if (getter === "git") {
    const u = new URL(rest.replace(/^ssh:\/\/([^@/]+)@([^:/]+):(?!\d)/, "ssh://$1@$2/"));
    const ref = u.searchParams.get("ref") ?? "";
    const sshKey = u.searchParams.get("sshkey") ?? "";
    const d = Number(u.searchParams.get("depth") ?? "0");
    u.searchParams.delete("ref");
    u.searchParams.delete("depth");
    u.searchParams.delete("sshkey");
    const url = u.href.replace(/\?$/, "");
    const args = ["clone"];
    if (d > 0) {
      args.push("--depth", String(d));
      if (ref !== "") args.push("--branch", ref);
    }
    args.push("--", url, dir);
    const keyFile = writeSshKey(sshKey);
    try {
      await git(args, undefined, keyFile);
      if (d < 1 && ref !== "") await git(["checkout", ref], dir);
      await git(["submodule", "update", "--init", "--recursive"], dir, keyFile);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    } finally {
      if (keyFile !== undefined) rmSync(dirname(keyFile), { recursive: true, force: true });
    }
    return;
  }
  if (getter !== "" && getter !== "http" && getter !== "https") throw new StepError(InstallErrorCode.BadConfig, `magma does not support the ${getter}:: module source`);
  let u: URL;
  try {
    u = new URL(rest);
  } catch {
    throw new StepError(InstallErrorCode.BadConfig, `${JSON.stringify(packageAddr)} is not a URL magma can download a module from`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new StepError(InstallErrorCode.BadConfig, `magma does not support ${u.protocol} module sources`);
  const param = u.searchParams.get("archive") ?? "";
  u.searchParams.delete("archive");
  const kind = archiveKind(u, param);
  if (kind !== "") {
    const body = await httpDownloadBuffer(u, http);
    try {
      if (kind === "zip") unpackZip(body, dir);
      else if (kind === "tar.gz") unpackTar(body, dir, "gzip");
      else if (kind === "tar.bz2" || kind === "tar.xz") unpackTar(await decompress(body, kind), dir, "none");
      else throw new StepError(InstallErrorCode.BadArchive, `${kind === "gz" ? "gzip" : kind === "bz2" ? "bzip2" : "xz"}-compressed files can only unarchive to a single file`);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    return;
  }
  // go-getter's HTTP getter; its client names the URL in any of its errors
  try {
    const q = new URL(u);
    q.searchParams.set("terraform-get", "1");
    const res = await httpGet(q, http);
    if (res.status < 200 || res.status >= 300) throw new StepError(InstallErrorCode.Download, `bad response code: ${res.status}`);
    const next = res.headers["x-terraform-get"];
    const notHtml = typeof next === "string" && next !== "" ? undefined : goXmlLeadingTextError(res.body);
    if (notHtml !== undefined) throw new StepError(InstallErrorCode.Download, notHtml);
    const meta = /<meta\s+name="terraform-get"\s+content="([^"]*)"/i.exec(res.body.toString("utf8"))?.[1];
    const target = typeof next === "string" ? next : meta;
    if (target === undefined || target === "") throw new StepError(InstallErrorCode.Download, "no source URL was returned");
    const resolved = /^[a-z0-9]+::/.test(target) ? target : new URL(target, res.url).href;
    await fetchModulePackage(resolved, dir, http, depth + 1);
  } catch (e) {
    const err = e as StepError;
    throw new StepError(err.code ?? InstallErrorCode.Download, `error downloading '${goRedactedUrl(u)}': ${err.message}`, e);
  }
}
