// A state the backend cannot save is never lost, against terraform 1.11.4 on the same
// configuration: when a write fails during an apply (a full disk, a read-only state directory,
// the pg server gone, a state of another lineage found in the store), the apply fails and the
// complete state (every object, the new ones included) goes to errored.tfstate in the working
// directory with terraform's "Failed to save state" / "Failed to persist state to backend"
// diagnostics; when even that file cannot be written, the state is printed on stderr (terraform's
// emergency dump). The disk-full and read-only cases need root (a small tmpfs, an immutable
// directory) and are skipped without it. The provider is test/testdata's slow provider-random.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type TestPostgres } from "../../state/test/support/postgres.js";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const mounted: string[] = [];
const immutable: string[] = [];
let pg: TestPostgres | undefined;

afterAll(async () => {
  stopToolRuns();
  for (const d of immutable.splice(0)) spawnSync("chattr", ["-R", "-i", d]);
  for (const d of mounted.splice(0)) spawnSync("umount", [d]);
  removeWorkdirs();
  await pg?.stop();
}, 60_000);

/** Mounts a tmpfs of `kb` KiB on `dir`; false when this machine refuses (not root, no mount). */
function mountTmpfs(dir: string, kb: number): boolean {
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${kb}k`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) return false;
  mounted.push(dir);
  return true;
}

/** Whether `chattr +i` works here (root, a file system with the immutable flag). */
function canMakeImmutable(): boolean {
  const d = workdir();
  const r = spawnSync("chattr", ["+i", d]);
  if (r.status !== 0) return false;
  spawnSync("chattr", ["-i", d]);
  return true;
}

const canMount = ((): boolean => {
  const d = workdir();
  if (!mountTmpfs(d, 64)) return false;
  spawnSync("umount", [d]);
  mounted.splice(mounted.indexOf(d), 1);
  return true;
})();

const HCL = (backend: string): string => `terraform {
  required_providers {
    slow = { source = "magma/slow" }
  }
  ${backend}
}
variable "n" {
  default = 2
}
resource "random_id" "a" {
  provider    = slow
  count       = var.n
  byte_length = 4
}
`;

const LOCAL_BACKEND = `backend "local" {\n    path = "st/terraform.tfstate"\n  }`;

/** The same configuration in terraform's JSON syntax, with the local backend in `st/`. */
const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { slow: { source: "magma/slow" } }, backend: { local: { path: "st/terraform.tfstate" } } },
  variable: { n: { default: 2 } },
  resource: { random_id: { a: { provider: "slow", count: "${var.n}", byte_length: 4 } } },
});

interface StateSummary {
  readonly lineage: string;
  readonly serial: number;
  readonly instances: readonly string[];
}

/** A state file's lineage, serial and instances (`random_id.a[0]`, … with their ids). */
function summary(text: string): StateSummary {
  const s = JSON.parse(text) as { lineage: string; serial: number; resources: { type: string; name: string; instances: { index_key?: number; attributes: { id: string } }[] }[] };
  return { lineage: s.lineage, serial: s.serial, instances: s.resources.flatMap((r) => r.instances.map((i) => `${r.type}.${r.name}[${i.index_key}] ${i.attributes.id}`)).sort() };
}

/** The ids an apply reported as created (`Creation complete after 0s [id=…]`). */
function created(run: ToolRun): string[] {
  return [...run.stdout.matchAll(/^(random_id\.a\[\d+\]): Creation complete after \d+s \[id=([^\]]+)\]$/gm)].map((m) => `${m[1]} ${m[2]}`);
}

/** The diagnostics' summaries, in order. */
const summaries = (stderr: string): string[] => [...stderr.matchAll(/^(?:│ )?Error: (.*)$/gm)].map((m) => m[1]!);

const BACKED_UP = /To allow for recovery, the state has been written to the file "errored\.tfstate" in the current working directory\./;

/** Text with its line breaks and runs of spaces as single spaces (diagnostics are word-wrapped). */
const flat = (text: string): string => text.replace(/\s+/g, " ");

(TERRAFORM !== undefined ? describe : describe.skip)("a state that cannot be saved is kept, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ slow: "slow-provider.mjs" });
  });
  const env = (ms: number): Record<string, string> => ({ TF_CLI_CONFIG_FILE: cliConfig, SLOW_PROVIDER_MS: String(ms) });
  const apply = ["apply", "-auto-approve", "-input=false", "-no-color"];

  /** Two working directories on `files`, initialised by terraform and applied once (2 objects): [magma's, terraform's]. */
  const pair = async (files: Record<string, string>, prepare: (dir: string) => void = () => undefined): Promise<[string, string]> => {
    const dirs = [workdir(files), workdir(files)] as [string, string];
    for (const d of dirs) prepare(d);
    // One after the other: each init creates terraform's shared sequence public.global_states_id_seq
    // (CREATE SEQUENCE IF NOT EXISTS), and two at once can race into "duplicate key value violates
    // unique constraint pg_class_relname_nsp_index" (seen on CI's loaded machine).
    for (const d of dirs) await terraformAsync(["init", "-no-color", "-input=false"], d, { env: env(0) });
    const first = await Promise.all([runTool("magma", apply, dirs[0], env(0)), runTool("terraform", apply, dirs[1], env(0))]);
    for (const r of first) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    return dirs;
  };

  (canMount ? test : test.skip)("a full disk under the state: errored.tfstate holds all 6 objects, with terraform's diagnostics", async () => {
    const dirs = await pair({ "main.tf": HCL(LOCAL_BACKEND) }, (d) => {
      mkdirSync(join(d, "st"));
      mountTmpfs(join(d, "st"), 16);
    });
    const before = dirs.map((d) => summary(readFileSync(join(d, "st", "terraform.tfstate"), "utf8")));
    // Fill the file system: nothing more can be written under st/ (not even the lock info: -lock=false, as terraform needs too).
    for (const d of dirs) spawnSync("dd", ["if=/dev/zero", `of=${join(d, "st", "filler")}`, "bs=1k", "count=64"]);
    const [ours, theirs] = await Promise.all([runTool("magma", [...apply, "-lock=false", "-var", "n=6"], dirs[0], env(0)), runTool("terraform", [...apply, "-lock=false", "-var", "n=6"], dirs[1], env(0))]);
    for (const [i, r] of [ours, theirs].entries()) {
      expect(r.code).toBe(1);
      expect(flat(r.stderr)).toMatch(/no space left on device/);
      expect(summaries(r.stderr).slice(-2)).toEqual(["Failed to save state", "Failed to persist state to backend"]);
      expect(flat(r.stderr)).toMatch(BACKED_UP);
      const errored = summary(readFileSync(join(dirs[i]!, "errored.tfstate"), "utf8"));
      // Every object: the 2 before and the 4 this apply created; the lineage of the stored state, which is unchanged.
      expect(errored.instances).toHaveLength(6);
      expect(errored.lineage).toBe(before[i]!.lineage);
      for (const o of before[i]!.instances) expect(errored.instances).toContain(o);
      for (const o of created(r)) expect(errored.instances).toContain(o);
      expect(summary(readFileSync(join(dirs[i]!, "st", "terraform.tfstate"), "utf8"))).toEqual(before[i]);
    }
  }, 240_000);

  (canMakeImmutable() ? test : test.skip)("a read-only state directory (JSON syntax): magma keeps the objects in errored.tfstate; terraform 1.11.4 reports success and loses them", async () => {
    const dirs = await pair({ "main.tf.json": JSON_CONFIG });
    const before = dirs.map((d) => summary(readFileSync(join(d, "st", "terraform.tfstate"), "utf8")));
    for (const d of dirs) {
      immutable.push(join(d, "st"));
      expect(spawnSync("chattr", ["-R", "+i", join(d, "st")]).status).toBe(0);
    }
    const [ours, theirs] = await Promise.all([runTool("magma", [...apply, "-lock=false", "-var", "n=6"], dirs[0], env(0)), runTool("terraform", [...apply, "-lock=false", "-var", "n=6"], dirs[1], env(0))]);
    expect(ours.code).toBe(1);
    expect(summaries(ours.stderr).slice(-2)).toEqual(["Failed to save state", "Failed to persist state to backend"]);
    expect(flat(ours.stderr)).toMatch(/operation not permitted/);
    const errored = summary(readFileSync(join(dirs[0], "errored.tfstate"), "utf8"));
    expect(errored.instances).toHaveLength(6);
    expect(errored.lineage).toBe(before[0]!.lineage);
    // terraform 1.11.4 (observed): exit 0, "Apply complete! Resources: 4 added", the state file unchanged and no errored.tfstate: the 4 objects are lost.
    expect(theirs.code).toBe(0);
    expect(theirs.stdout).toMatch(/Apply complete! Resources: 4 added/);
    expect(summary(readFileSync(join(dirs[1], "st", "terraform.tfstate"), "utf8")).instances).toHaveLength(2);
    expect(existsSync(join(dirs[1], "errored.tfstate"))).toBe(false);
  }, 240_000);

  test("a state of another lineage written into the store during the apply: magma refuses to overwrite it and keeps its own in errored.tfstate (or prints it when that fails); terraform overwrites it", async () => {
    const dirs = await pair({ "main.tf": HCL(LOCAL_BACKEND) });
    const before = dirs.map((d) => summary(readFileSync(join(d, "st", "terraform.tfstate"), "utf8")));
    const foreign = `{\n  "version": 4,\n  "terraform_version": "1.11.4",\n  "serial": 9,\n  "lineage": "00000000-1111-2222-3333-444444444444",\n  "outputs": {},\n  "resources": [],\n  "check_results": null\n}\n`;
    // Another run with -lock=false replaces the state while the new objects are being created.
    const intrude = (d: string) => ({ match: /Creating\.\.\./, run: () => writeFileSync(join(d, "st", "terraform.tfstate"), foreign) });
    const [ours, theirs] = await Promise.all([runTool("magma", [...apply, "-var", "n=3"], dirs[0], env(2000), { onOutput: intrude(dirs[0]) }), runTool("terraform", [...apply, "-var", "n=3"], dirs[1], env(2000), { onOutput: intrude(dirs[1]) })]);
    expect(ours.code).toBe(1);
    expect(flat(ours.stderr)).toMatch(/refusing to overwrite the state of workspace "default": it has lineage "00000000-1111-2222-3333-444444444444"/);
    expect(summaries(ours.stderr).slice(-2)).toEqual(["Failed to save state", "Failed to persist state to backend"]);
    const errored = summary(readFileSync(join(dirs[0], "errored.tfstate"), "utf8"));
    expect(errored.instances).toHaveLength(3);
    expect(errored.lineage).toBe(before[0]!.lineage);
    expect(readFileSync(join(dirs[0], "st", "terraform.tfstate"), "utf8")).toBe(foreign);
    // terraform's local backend does not look: its state replaces the other one.
    expect(theirs.code).toBe(0);
    expect(summary(readFileSync(join(dirs[1], "st", "terraform.tfstate"), "utf8")).lineage).toBe(before[1]!.lineage);

    // Again with errored.tfstate impossible to write (a directory of that name): the state is printed on stderr, as terraform's emergency dump.
    writeFileSync(join(dirs[0], "st", "terraform.tfstate"), readFileSync(join(dirs[0], "errored.tfstate")));
    spawnSync("rm", ["-f", join(dirs[0], "errored.tfstate")]);
    mkdirSync(join(dirs[0], "errored.tfstate"));
    const dumped = await runTool("magma", [...apply, "-var", "n=4"], dirs[0], env(2000), { onOutput: intrude(dirs[0]) });
    expect(dumped.code).toBe(1);
    expect(summaries(dumped.stderr).slice(-3)).toEqual(["Failed to save state", "Failed to create local state file", "Failed to persist state to backend"]);
    expect(flat(dumped.stderr)).toMatch(/the raw state data is printed above as a JSON object/);
    const text = dumped.stderr.slice(dumped.stderr.indexOf("{\n"), dumped.stderr.indexOf("\n}\n") + 3);
    const printed = summary(text);
    expect(printed.instances).toHaveLength(4);
    expect(printed.lineage).toBe(before[0]!.lineage);
  }, 240_000);

  test("the pg server gone during the apply: errored.tfstate holds every object, as terraform's", async () => {
    pg = await startPostgres();
    const conn = await pg.createDatabase("state_save_failure");
    const backend = (schema: string): string => `backend "pg" {\n    conn_str    = "${conn}"\n    schema_name = "${schema}"\n  }`;
    const dirs = [workdir({ "main.tf": HCL(backend("magma_lost")) }), workdir({ "main.tf": HCL(backend("terraform_lost")) })] as [string, string];
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: env(0) })));
    // One after the other: creating a workspace takes a lock of the whole database.
    for (const r of [await runTool("magma", apply, dirs[0], env(0)), await runTool("terraform", apply, dirs[1], env(0))]) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    // Both runs create slowly; the server stops once both have started creating.
    let started = 0;
    let stopped: Promise<void> | undefined;
    const stopWhenBoth = { match: /Creating\.\.\./, run: () => void (++started === 2 && (stopped = pg!.stop())) };
    const runs = await Promise.all([runTool("magma", [...apply, "-var", "n=4"], dirs[0], env(4000), { onOutput: stopWhenBoth }), runTool("terraform", [...apply, "-var", "n=4"], dirs[1], env(4000), { onOutput: stopWhenBoth })]);
    await stopped;
    pg = undefined;
    for (const [i, r] of runs.entries()) {
      expect(r.code).toBe(1);
      expect(summaries(r.stderr)).toContain("Failed to save state");
      expect(summaries(r.stderr)).toContain("Failed to persist state to backend");
      const errored = summary(readFileSync(join(dirs[i]!, "errored.tfstate"), "utf8"));
      expect(errored.instances).toHaveLength(4);
      for (const o of created(r)) expect(errored.instances).toContain(o);
    }
  }, 300_000);
});
