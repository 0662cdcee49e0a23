// Workspaces, state push and the state lock through the built binary on temporary working
// directories, laid out as Terraform lays them out (no terraform needed).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalBackend, newStateFile, readStateFile, writeStateFile, type StateFile } from "@magma/state";
import { cleanUp, magma } from "./support/run-magma.js";
import { removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const stateWith = (serial: number, lineage: string, outputs: Record<string, string> = {}): StateFile => ({
  ...newStateFile(),
  serial,
  lineage,
  outputs: new Map(Object.entries(outputs).map(([k, v]) => [k, { valueJson: JSON.stringify(v), typeJson: '"string"', sensitive: false }])),
});

describe("magma workspace", () => {
  test("new, select, list, show, delete: terraform's files, words and exit codes", async () => {
    const dir = workdir({ "main.tf": "" });
    let r = await magma(["workspace", "new", "dev"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created and switched to workspace "dev"!');
    expect(readFileSync(join(dir, ".terraform", "environment"), "utf8")).toBe("dev");
    expect(existsSync(join(dir, "terraform.tfstate.d", "dev"))).toBe(true);
    r = await magma(["workspace", "list"], { cwd: dir });
    expect(r.stdout).toBe("  default\n* dev\n\n");
    r = await magma(["workspace", "new", "dev"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Workspace "dev" already exists');
    r = await magma(["workspace", "new", "bad name"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The workspace name "bad name" is not allowed.');
    r = await magma(["workspace", "delete", "dev"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Workspace "dev" is your active workspace.');
    r = await magma(["workspace", "select", "nope"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Workspace "nope" doesn\'t exist.');
    r = await magma(["workspace", "select", "default"], { cwd: dir });
    expect(r.stdout).toBe('Switched to workspace "default".\n');
    // A workspace that tracks resources is only deleted with -force.
    writeFileSync(
      join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate"),
      JSON.stringify({
        version: 4,
        terraform_version: "1.11.4",
        serial: 1,
        lineage: "5a4ec1a4-55c8-1f4b-cb2c-6b1c8b7cd5b1",
        outputs: {},
        resources: [
          {
            mode: "managed",
            type: "terraform_data",
            name: "a",
            provider: 'provider["terraform.io/builtin/terraform"]',
            instances: [{ schema_version: 0, attributes: { id: "x" }, sensitive_attributes: [] }],
          },
        ],
        check_results: null,
      }),
    );
    r = await magma(["workspace", "delete", "dev"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Workspace is not empty");
    expect(r.stderr).toContain("  - terraform_data.a");
    r = await magma(["workspace", "delete", "-force", "dev"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Deleted workspace "dev"!\nWARNING: "dev" was non-empty.');
    expect(existsSync(join(dir, "terraform.tfstate.d", "dev"))).toBe(false);
    r = await magma(["workspace", "select", "-or-create", "w3"], { cwd: dir });
    expect(r.code).toBe(0);
    r = await magma(["workspace", "show"], { cwd: dir, env: { TF_WORKSPACE: "default" } });
    expect(r.stdout).toBe("default\n");
    r = await magma(["workspace", "select", "w3"], { cwd: dir, env: { TF_WORKSPACE: "default" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("overridden using the TF_WORKSPACE");
    r = await magma(["-chdir=" + dir, "workspace", "show"]);
    expect(r.stdout).toBe("w3\n");
  }, 120_000);

  test("a backend block's path and workspace_dir place the states", async () => {
    const dir = workdir({ "main.tf": 'terraform {\n  backend "local" {\n    path          = "states/main.tfstate"\n    workspace_dir = "ws"\n  }\n}\n' });
    writeFileSync(join(dir, "seed.tfstate"), writeStateFile(stateWith(1, "11111111-2222-3333-4444-555555555555", { greeting: "hi" })));
    let r = await magma(["state", "push", "seed.tfstate"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(existsSync(join(dir, "states", "main.tfstate"))).toBe(true);
    r = await magma(["workspace", "new", "blue"], { cwd: dir });
    expect(existsSync(join(dir, "ws", "blue"))).toBe(true);
    r = await magma(["output", "-raw", "greeting"], { cwd: dir, env: { TF_WORKSPACE: "default" } });
    expect(r.stdout).toBe("hi");
    const bad = workdir({ "main.tf": 'terraform {\n  backend "local" {\n    nope = 1\n  }\n}\n' });
    r = await magma(["state", "list"], { cwd: bad });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nope");
  }, 120_000);
});

describe("magma state push and the lock", () => {
  test("push refuses another lineage and an older serial unless -force; the lock holder is named", async () => {
    const dir = workdir({ "main.tf": "" });
    const lineage = "aaaaaaaa-2222-3333-4444-555555555555";
    writeFileSync(join(dir, "v3.tfstate"), writeStateFile(stateWith(3, lineage, { v: "three" })));
    writeFileSync(join(dir, "v2.tfstate"), writeStateFile(stateWith(2, lineage, { v: "two" })));
    writeFileSync(join(dir, "other.tfstate"), writeStateFile(stateWith(9, "bbbbbbbb-2222-3333-4444-555555555555")));
    expect((await magma(["state", "push", "v3.tfstate"], { cwd: dir })).code).toBe(0);
    let r = await magma(["state", "push", "v2.tfstate"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot import state with serial 2 over newer state with serial 3");
    r = await magma(["state", "push", "other.tfstate"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("over unrelated state with lineage");
    // As terraform's local state: the file's serial, plus one as its objects differ from the stored ones (test/state-push-serial.test.ts).
    r = await magma(["state", "push", "-force", "v2.tfstate"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readStateFile(readFileSync(join(dir, "terraform.tfstate")))!.serial).toBe(3);
    // The same serial with other objects is refused; forced, it is written.
    r = await magma(["state", "push", "-"], { cwd: dir, input: readFileSync(join(dir, "v3.tfstate")) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("Failed to write state: cannot overwrite existing state with serial 3 with a different state that has the same serial\n");
    r = await magma(["state", "push", "-force", "-"], { cwd: dir, input: readFileSync(join(dir, "v3.tfstate")) });
    expect(r.code).toBe(0);
    expect(readStateFile(readFileSync(join(dir, "terraform.tfstate")))!.serial).toBe(4);

    // Held by this (test) process: magma names the holder, -lock=false goes ahead.
    const store = createLocalBackend({ dir }).store("default");
    const id = await store.lock({ operation: "OperationTypeApply", info: "held by the test" });
    try {
      r = await magma(["state", "push", "-lock-timeout=1s", "v3.tfstate"], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Error acquiring the state lock");
      expect(r.stderr).toContain(`ID:        ${id}`);
      expect(r.stderr).toContain("OperationTypeApply");
      r = await magma(["force-unlock", "-force", "not-the-id"], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Failed to unlock state");
    } finally {
      await store.unlock(id);
    }
    r = await magma(["force-unlock", "some-id"], { cwd: dir, input: "no\n" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("force-unlock cancelled.");
    r = await magma(["state", "list"], { cwd: workdir({ "main.tf": "" }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("No state file was found!");
  }, 120_000);
});
