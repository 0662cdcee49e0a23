import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { InstallErrorCode, StepError } from "./install-error.js";
import { compareVersions } from "./provider-source.js";

/** `terraform-credentials-<name>` or `terraform-credentials-<name>_v<version>` (terraform's legacy plugin names). */
function helperVersion(file: string, name: string): string | undefined {
  const base = file.endsWith(".exe") ? file.slice(0, -4) : file;
  const prefix = `terraform-credentials-${name}`;
  if (base === prefix) return "0.0.0";
  const m = /^_v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(base.slice(prefix.length));
  return base.startsWith(prefix) && m !== null ? m[1] : undefined;
}

/**
 * The directories terraform finds credentials helpers in (its global plugin directories):
 * `~/.terraform.d/plugins` and `~/.terraform.d/plugins/<os>_<arch>`, `~` being `HOME`.
 */
export function credentialsHelperDirs(platform: string, env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const home = env["HOME"] !== undefined && env["HOME"] !== "" ? env["HOME"] : homedir();
  const dir = join(home, ".terraform.d", "plugins");
  return [dir, join(dir, platform)];
}

/**
 * Finds the executable of `credentials_helper "<name>"` as terraform does: files named
 * `terraform-credentials-<name>` (version 0.0.0) or `terraform-credentials-<name>_v<version>`
 * in `dirs`, the newest version, the first directory's on a tie. `undefined` when there is
 * none (terraform then uses no helper).
 */
export function findCredentialsHelper(name: string, dirs: readonly string[]): string | undefined {
  let best: { path: string; version: string } | undefined;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const version = helperVersion(file, name);
      if (version === undefined) continue;
      const path = join(dir, file);
      try {
        if (!statSync(path).isFile()) continue;
      } catch {
        continue;
      }
      if (best === undefined || compareVersions(version, best.version) > 0) best = { path, version };
    }
  }
  return best?.path;
}

/**
 * A credentials helper program (terraform's `credentials_helper` protocol): `<path> <args…>
 * get <hostname>` prints a JSON object whose `token` is the host's token. Each host is asked
 * once; the answer (or the failure) is kept for the rest of the run. `store <hostname>` (the
 * object `{"token":…}` on its standard input) and `forget <hostname>` keep and drop a token,
 * as `terraform login` and `logout` use them.
 */
export class CredentialsHelper {
  /** The executable. */
  readonly path: string;
  /** The block's `args`, before `get <hostname>`. */
  readonly args: readonly string[];
  readonly #answers = new Map<string, { token: string | undefined } | { error: StepError }>();

  /** A helper run as `path args… get <hostname>`. */
  constructor(path: string, args: readonly string[]) {
    this.path = path;
    this.args = args;
  }

  /**
   * The token the helper gives for `hostname` (`undefined`: none, or an object without a
   * string `token`).
   *
   * @throws StepError `credentials` in terraform's words: `error in <path>: <its stderr>`
   *   when it exits non-zero, `failed to run <path>: …`, `malformed output from <path>: …`.
   */
  token(hostname: string): string | undefined {
    const host = hostname.toLowerCase();
    let answer = this.#answers.get(host);
    if (answer === undefined) {
      answer = this.#ask(host);
      this.#answers.set(host, answer);
    }
    if ("error" in answer) throw answer.error;
    return answer.token;
  }

  /**
   * Asks the helper to keep `token` for `hostname`: `<path> <args…> store <hostname>` with
   * `{"token":"…"}` on its standard input (terraform's `StoreForHost`). The run's answer for
   * the host becomes the token.
   *
   * @throws StepError `credentials` in terraform's words (see {@link token}).
   */
  store(hostname: string, token: string): void {
    const host = hostname.toLowerCase();
    this.#run(["store", host], JSON.stringify({ token }));
    this.#answers.set(host, { token });
  }

  /**
   * Asks the helper to drop the token of `hostname`: `<path> <args…> forget <hostname>`
   * (terraform's `ForgetForHost`).
   *
   * @throws StepError `credentials` in terraform's words (see {@link token}).
   */
  forget(hostname: string): void {
    const host = hostname.toLowerCase();
    this.#run(["forget", host]);
    this.#answers.set(host, { token: undefined });
  }

  /** Runs `path args… <verb> <host>` with `input` (nothing when absent) on its standard input, its output ignored. */
  #run(verb: readonly string[], input?: string): void {
    const r = spawnSync(this.path, [...this.args, ...verb], { ...(input === undefined ? { stdio: ["ignore", "ignore", "pipe"] } : { input, stdio: ["pipe", "ignore", "pipe"] }), maxBuffer: 16 << 20 });
    if (r.error !== undefined) throw new StepError(InstallErrorCode.Credentials, `failed to run ${this.path}: ${r.error.message}`);
    if (r.status !== 0) {
      const text = r.stderr.toString("utf8");
      throw new StepError(InstallErrorCode.Credentials, text === "" ? `error in ${this.path}, but it produced no error message` : `error in ${this.path}: ${text}`);
    }
  }

  #ask(host: string): { token: string | undefined } | { error: StepError } {
    const fail = (message: string): { error: StepError } => ({ error: new StepError(InstallErrorCode.Credentials, message) });
    const r = spawnSync(this.path, [...this.args, "get", host], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 16 << 20 });
    if (r.error !== undefined) return fail(`failed to run ${this.path}: ${r.error.message}`);
    if (r.status !== 0) {
      const text = r.stderr.toString("utf8");
      return fail(text === "" ? `error in ${this.path}, but it produced no error message` : `error in ${this.path}: ${text}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(r.stdout.toString("utf8"));
    } catch (e) {
      return fail(`malformed output from ${this.path}: ${(e as Error).message}`);
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return fail(`malformed output from ${this.path}: not a JSON object`);
    const token = (doc as Record<string, unknown>)["token"];
    return { token: typeof token === "string" ? token : undefined };
  }
}
