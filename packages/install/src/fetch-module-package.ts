import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { httpDownloadBuffer, httpGet, type HttpOptions } from "./http-client.js";
import { InstallErrorCode, StepError } from "./install-error.js";
import { unpackTar } from "./tar-archive.js";
import { unpackZip } from "./zip-archive.js";

function git(args: readonly string[], cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("git", [...args], { ...(cwd !== undefined ? { cwd } : {}), env: { ...process.env, GIT_TERMINAL_PROMPT: "0" }, maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) => {
      if (err === null) resolve();
      else reject(new StepError(InstallErrorCode.Download, `error downloading '${args[args.length - 2] ?? ""}': /usr/bin/git exited with ${String((err as { code?: number }).code ?? 1)}: ${String(stderr).trim()}`));
    });
  });
}

const ARCHIVES: readonly (readonly [suffix: string, kind: string])[] = [
  [".tar.gz", "tar.gz"],
  [".tgz", "tar.gz"],
  [".tar", "tar"],
  [".zip", "zip"],
];

/**
 * Fetches a module package into `dir` (which must not exist) as go-getter does for the
 * sources terraform supports: `git::` (https, ssh, file; `?ref=`, `?depth=`) with the git
 * command, `https://` archives (`.zip`, `.tar.gz`, `.tgz`, `.tar`, or `?archive=`), and other
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
    try {
      await git(args);
      if (d < 1 && ref !== "") await git(["checkout", ref], dir);
      await git(["submodule", "update", "--init", "--recursive"], dir);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
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
  let kind = u.searchParams.get("archive") ?? "";
  u.searchParams.delete("archive");
  if (kind === "") kind = ARCHIVES.find(([s]) => u.pathname.endsWith(s))?.[1] ?? "";
  if (kind === "tgz") kind = "tar.gz";
  if (kind !== "") {
    const body = await httpDownloadBuffer(u, http);
    try {
      if (kind === "zip") unpackZip(body, dir);
      else if (kind === "tar.gz" || kind === "tar") unpackTar(body, dir, kind === "tar.gz");
      else throw new StepError(InstallErrorCode.BadConfig, `unsupported archive format: ${kind}`);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    return;
  }
  const q = new URL(u);
  q.searchParams.set("terraform-get", "1");
  const res = await httpGet(q, http);
  if (res.status < 200 || res.status >= 300) throw new StepError(InstallErrorCode.Download, `bad response code: ${res.status}`);
  const next = res.headers["x-terraform-get"];
  const meta = /<meta\s+name="terraform-get"\s+content="([^"]*)"/i.exec(res.body.toString("utf8"))?.[1];
  const target = typeof next === "string" ? next : meta;
  if (target === undefined || target === "") throw new StepError(InstallErrorCode.Download, "no source URL was returned");
  const resolved = /^[a-z0-9]+::/.test(target) ? target : new URL(target, res.url).href;
  await fetchModulePackage(resolved, dir, http, depth + 1);
}
