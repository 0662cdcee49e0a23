import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTerraform, terraformEnv, writeTerraformCliConfig } from "@magma/test-support";

// Where the binaries are (configurable by environment) is test-support's; re-exported here for this package's tests.
export { AWS_BINARY, findTerraform, PLUGIN_MIRROR } from "@magma/test-support";

/** What one terraform command did. */
export interface TerraformRun {
  /** The exit code (null when killed). */
  readonly code: number | null;
  /** Standard output. */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
}

/** One resource instance as `terraform state pull` records it. */
export interface TerraformInstance {
  /** The address, e.g. `aws_eip.ip`. */
  readonly address: string;
  /** The resource type. */
  readonly type: string;
  /**
   * The instance's `attributes` in the state file: every attribute, sensitive ones included
   * (what `terraform show -json` prints as `values`).
   */
  readonly values: Record<string, unknown>;
  /** The instance's `status` in the state file (`tainted`), if any. */
  readonly status: string | undefined;
  /** The instance's `schema_version` in the state file. */
  readonly schemaVersion: number;
  /** The instance's private state (decoded from the state file's base64; empty when none). */
  readonly private: Uint8Array;
}

/** Options of {@link createTerraformWorkspace}. */
export interface TerraformWorkspaceOptions {
  /** The `terraform {}` and `provider {}` blocks written before every configuration. */
  readonly preamble: string;
  /** Time limit of one command in milliseconds (default 300000); the child is killed after it. */
  readonly commandTimeoutMs?: number;
}

/**
 * A temporary Terraform working directory for one oracle run: its own CLI configuration
 * (the filesystem mirror, set through `TF_CLI_CONFIG_FILE` for the child only), its own
 * state, and every child process killed on {@link TerraformWorkspace.close}.
 */
export interface TerraformWorkspace {
  /** The directory. */
  readonly dir: string;
  /** Writes `main.tf` as the preamble plus `body`. */
  writeConfig(body: string): void;
  /** Runs `terraform <args>` in the directory. */
  run(args: readonly string[]): Promise<TerraformRun>;
  /** Runs a command and rejects (with its output) unless it exits with `code` (default 0). */
  expect(args: readonly string[], code?: number): Promise<TerraformRun>;
  /** `terraform init`. */
  init(): Promise<void>;
  /** `terraform apply -auto-approve`; resolves to the run (exit code 0 or 1, anything else rejects). */
  apply(extra?: readonly string[]): Promise<TerraformRun>;
  /**
   * The instances in the state, from `terraform state pull`: attributes, status, schema version
   * and private. (Not `show -json`, which starts the provider for its schema: seconds of CPU
   * for hashicorp/aws, per call, for the same values.)
   */
  instances(): Promise<Map<string, TerraformInstance>>;
  /**
   * `terraform plan -out` then `show -json` of the plan file: the refreshed prior state's
   * values per address and the planned actions per address (`["update"]`, `["create"]`,
   * `["delete", "create"]`, `["no-op"]`, …).
   */
  plan(extra?: readonly string[]): Promise<TerraformPlan>;
  /** Kills running children and removes the directory. */
  close(): void;
}

/** What {@link TerraformWorkspace.plan} found. */
export interface TerraformPlan {
  /** The plan command's run (`-detailed-exitcode`: 0 no changes, 2 changes). */
  readonly run: TerraformRun;
  /** `prior_state` values per address: the state after the plan's refresh. */
  readonly refreshed: Map<string, Record<string, unknown>>;
  /** `resource_changes[].change.actions` per address. */
  readonly actions: Map<string, readonly string[]>;
}

/** Creates a {@link TerraformWorkspace} (the directory is created now, nothing runs yet). */
export function createTerraformWorkspace(options: TerraformWorkspaceOptions): TerraformWorkspace {
  const dir = mkdtempSync(join(tmpdir(), "magma-conformance-tf-"));
  const cliConfig = writeTerraformCliConfig(dir);
  const timeout = options.commandTimeoutMs ?? 300_000;
  const children = new Set<ChildProcess>();

  const run = (args: readonly string[]): Promise<TerraformRun> =>
    new Promise((resolve, reject) => {
      const env = terraformEnv(cliConfig);
      const child = spawn(findTerraform() ?? "terraform", [...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
      child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
      child.on("error", (e) => {
        clearTimeout(timer);
        children.delete(child);
        reject(e);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        children.delete(child);
        resolve({ code, stdout, stderr });
      });
    });

  const expectRun = async (args: readonly string[], code = 0): Promise<TerraformRun> => {
    const r = await run(args);
    if (r.code !== code) {
      throw new Error(`terraform ${args.join(" ")}: expected exit ${code}, got ${String(r.code)}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    }
    return r;
  };

  const expectRunOneOf = async (args: readonly string[], codes: readonly number[]): Promise<TerraformRun> => {
    const r = await run(args);
    if (r.code === null || !codes.includes(r.code)) {
      throw new Error(`terraform ${args.join(" ")}: expected exit ${codes.join(" or ")}, got ${String(r.code)}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    }
    return r;
  };

  return {
    dir,
    writeConfig: (body) => writeFileSync(join(dir, "main.tf"), `${options.preamble}\n${body}`),
    run,
    expect: expectRun,
    init: async () => {
      await expectRun(["init", "-input=false", "-no-color"]);
    },
    apply: async (extra = []) => {
      const r = await run(["apply", "-auto-approve", "-input=false", "-no-color", ...extra]);
      if (r.code !== 0 && r.code !== 1) throw new Error(`terraform apply exited ${String(r.code)}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
      return r;
    },
    instances: async () => {
      const pulled = JSON.parse((await expectRun(["state", "pull"])).stdout) as StateFileJson;
      const out = new Map<string, TerraformInstance>();
      for (const r of pulled.resources ?? []) {
        if (r.mode !== "managed") continue;
        for (const inst of r.instances ?? []) {
          if (inst.index_key !== undefined) throw new Error(`terraform state: ${r.type}.${r.name} has an instance key; only single instances are supported here`);
          const address = `${r.type}.${r.name}`;
          out.set(address, {
            address,
            type: r.type,
            values: inst.attributes ?? {},
            status: inst.status,
            schemaVersion: inst.schema_version ?? 0,
            private: inst.private === undefined ? new Uint8Array(0) : new Uint8Array(Buffer.from(inst.private, "base64")),
          });
        }
      }
      return out;
    },
    plan: async (extra = []) => {
      const run = await expectRunOneOf(["plan", "-out=tfplan", "-detailed-exitcode", "-input=false", "-no-color", ...extra], [0, 2]);
      const doc = JSON.parse((await expectRun(["show", "-json", "-no-color", "tfplan"])).stdout) as PlanJson;
      const refreshed = new Map<string, Record<string, unknown>>();
      for (const r of doc.prior_state?.values?.root_module?.resources ?? []) if (r.mode === "managed") refreshed.set(r.address, r.values);
      const actions = new Map<string, readonly string[]>();
      for (const c of doc.resource_changes ?? []) actions.set(c.address, c.change.actions);
      return { run, refreshed, actions };
    },
    close: () => {
      for (const c of children) c.kill("SIGKILL");
      children.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface ShowJson {
  readonly values?: { readonly root_module?: { readonly resources?: readonly { address: string; mode: string; type: string; values: Record<string, unknown> }[] } };
}

interface PlanJson {
  readonly prior_state?: ShowJson;
  readonly resource_changes?: readonly { address: string; change: { actions: readonly string[] } }[];
}

interface StateFileInstance {
  readonly index_key?: unknown;
  readonly attributes?: Record<string, unknown>;
  readonly status?: string;
  readonly schema_version?: number;
  readonly private?: string;
}

interface StateFileJson {
  readonly resources?: readonly { mode: string; type: string; name: string; instances?: readonly StateFileInstance[] }[];
}

/**
 * Writes a plain configuration object as the body of an HCL `resource` block: strings,
 * numbers, bools and flat string maps (enough for the conformance scenarios; anything else
 * throws naming the attribute).
 */
export function hclResource(type: string, name: string, config: Readonly<Record<string, unknown>>): string {
  const lines = Object.entries(config)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `  ${k} = ${hclValue(v, `${type}.${name}.${k}`)}`);
  return `resource "${type}" "${name}" {\n${lines.join("\n")}\n}\n`;
}

function hclValue(v: unknown, where: string): string {
  if (typeof v === "string") return JSON.stringify(v).replace(/\$\{/g, "$$${").replace(/%\{/g, "%%{");
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)} = ${hclValue(x, `${where}.${k}`)}`);
    return `{ ${entries.join(", ")} }`;
  }
  throw new Error(`hclResource: unsupported value at ${where}: ${JSON.stringify(v)}`);
}
