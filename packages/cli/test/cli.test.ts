// The built `magma` executable, run as a child process against the native random provider:
// every command, its JSON and human forms, chaining through files and stdin, and bad input.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { MAGMA_BIN, cleanUp, magma, magmaJson } from "./support/run-magma.js";

let dir: string;

beforeAll(() => {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  dir = mkdtempSync(join(tmpdir(), "magma-cli-test-"));
});

afterAll(() => {
  cleanUp();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, content: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content));
  return p;
};

type State = Record<string, unknown>;

describe("help, version and usage errors", () => {
  test.each(["schema", "plan", "apply", "destroy", "read", "data", "import", "upgrade", "reap", "demo"])("magma %s --help", async (cmd) => {
    const r = await magma([cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: magma ${cmd}`);
    expect(r.stderr).toBe("");
  });

  test("magma --help lists every command, the provider forms and the exit codes", async () => {
    const r = await magma(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["schema", "plan", "apply", "destroy", "read", "data", "import", "upgrade", "reap", "demo"]) expect(r.stdout).toContain(`  ${c} `);
    expect(r.stdout).toContain("MAGMA_PLUGIN_DIRS");
    expect(r.stdout).toContain("Exit codes: 0 ok, 1 error, 2 usage error");
  });

  test("magma --version prints the package version", async () => {
    const r = await magma(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test.each([
    [["bogus"], "unknown command 'bogus'"],
    [[], "Usage: magma"],
    [["plan", "random"], "missing required argument 'type'"],
    [["plan", "random", "random_string", "--nope"], "unknown option '--nope'"],
    [["plan", "random", "random_string", "-o", "xml"], "Allowed choices are human, json"],
    [["import", "random", "random_string"], "required option '--id <id>' not specified"],
    [["upgrade", "random", "random_string", "--version", "x", "--raw-state", "{}"], "--version: expected a non-negative integer"],
    [["read", "random", "random_string"], "needs the object's state"],
    [["read", "random", "random_string", "--state", "{}", "--from", "x.json"], "either --state or --from"],
  ])("usage error %j exits 2", async (args, message) => {
    const r = await magma(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
  });
});

describe("schema", () => {
  test("summary (human): kind, capabilities, counts and the types", async () => {
    const r = await magma(["schema", "random", "-o", "human"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("provider registry.terraform.io/magma/random");
    expect(r.stdout).toContain("native");
    expect(r.stdout).toMatch(/resources:\s+7/);
    expect(r.stdout).toMatch(/data sources:\s+0/);
    expect(r.stdout).toContain("    random_string\n");
  });

  test("one type (human): a tree with types and flags", async () => {
    const r = await magma(["schema", "random", "random_password", "-o", "human"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("resource random_password (schema version 3)");
    expect(r.stdout).toMatch(/length\s+number\s+required/);
    expect(r.stdout).toMatch(/result\s+string\s+computed, sensitive/);
    expect(r.stdout).toMatch(/keepers\s+map\(string\)\s+optional/);
  });

  test("--json is Terraform's providers-schema object (piped output defaults to JSON too)", async () => {
    const explicit = await magmaJson(["schema", "random", "--json"]);
    const piped = await magmaJson(["schema", "random"]);
    expect(piped).toEqual(explicit);
    expect(Object.keys(explicit)).toEqual(["provider", "resource_schemas", "ephemeral_resource_schemas"]);
    expect(Object.keys(explicit["ephemeral_resource_schemas"] as object)).toEqual(["random_password"]);
    const rs = (explicit["resource_schemas"] as Record<string, { version: number; block: { attributes: Record<string, Record<string, unknown>> } }>)["random_string"]!;
    expect(rs.version).toBe(2);
    expect(rs.block.attributes["length"]).toEqual(expect.objectContaining({ type: "number", required: true, description_kind: "plain" }));
    expect(rs.block.attributes["keepers"]).toEqual(expect.objectContaining({ type: ["map", "string"], optional: true }));
  });

  test("one type --json", async () => {
    const j = await magmaJson(["schema", "random", "random_uuid", "--json"]);
    expect(Object.keys(j)).toEqual(["resource_schema"]);
  });

  test("the JSON is compact (one line, as terraform prints it) unless --pretty, on stdout and in --out", async () => {
    for (const args of [["schema", "random"], ["schema", "random", "random_string"]]) {
      const compact = await magma([...args, "--json"]);
      const pretty = await magma([...args, "--json", "--pretty"]);
      expect([compact.code, pretty.code]).toEqual([0, 0]);
      const doc = JSON.parse(compact.stdout) as unknown;
      expect(compact.stdout).toBe(`${JSON.stringify(doc)}\n`);
      expect(pretty.stdout).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    }
    const outFile = join(dir, "schema-out.json");
    const r = await magma(["schema", "random", "-o", "human", "--out", outFile]);
    expect(r.stdout).toContain("provider registry.terraform.io/magma/random");
    const text = readFileSync(outFile, "utf8");
    expect(text).toBe(`${JSON.stringify(JSON.parse(text))}\n`);
  });

  test("unknown type: exit 1, unknown_type, suggestions", async () => {
    const r = await magma(["schema", "random", "random_strin"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[unknown_type]");
    expect(r.stderr).toContain("hint: did you mean random_string");
  });
});

describe("the lifecycle of random_string through JSON files", () => {
  test("plan → apply → read → replacing plan → apply --plan → destroy", async () => {
    const config = { length: 10, special: false, keepers: { rotation: "1" } };
    const plan = await magmaJson(["plan", "random", "random_string", "--config", JSON.stringify(config)]);
    expect(plan["action"]).toBe("create");
    expect(plan["prior_state"]).toBeNull();
    expect(plan["after_unknown"]).toEqual({ id: true, keepers: {}, result: true });
    expect((plan["planned_state"] as State)["length"]).toBe(10);
    expect((plan["planned_state"] as State)["result"]).toBeNull();
    expect(plan["requires_replace"]).toEqual([]);

    const applied = await magmaJson(["apply", "random", "random_string", "--config", file("config.json", config)]);
    expect(applied["action"]).toBe("create");
    const state = applied["state"] as State;
    expect(state["result"]).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(state["id"]).toBe(state["result"]);
    expect(applied["warnings"]).toEqual([]);
    const stateFile = file("state.json", applied);

    const read = await magmaJson(["read", "random", "random_string", "--from", stateFile]);
    expect(read["state"]).toEqual(state);
    const readByState = await magmaJson(["read", "random", "random_string", "--state", JSON.stringify(state), "--private", ""]);
    expect(readByState["state"]).toEqual(state);

    const same = await magmaJson(["plan", "random", "random_string", "--from", stateFile, "--config", JSON.stringify(config)]);
    expect(same["action"]).toBe("no-op");

    const changed = { ...config, keepers: { rotation: "2" } };
    const replace = await magmaJson(["plan", "random", "random_string", "--from", stateFile, "--config", JSON.stringify(changed)]);
    expect(replace["action"]).toBe("replace");
    expect(replace["replacing"]).toEqual(["keepers"]);
    // As in terraform's after_unknown: known collections are kept as empty objects.
    expect(replace["after_unknown"]).toEqual({ id: true, keepers: {}, result: true });
    const human = await magma(["plan", "random", "random_string", "--from", stateFile, "--config", JSON.stringify(changed), "-o", "human", "--name", "token"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('-/+ resource "random_string" "token" {');
    expect(human.stdout).toMatch(/~ keepers = \{ # forces replacement\n\s+~ "rotation" = "1" -> "2"/);
    expect(human.stdout).toContain(`~ result  = "${String(state["result"])}" -> (known after apply)`);
    expect(human.stdout).toContain("Plan: 1 to add, 0 to change, 1 to destroy.");

    const planFile = file("plan.json", replace);
    const replaced = await magmaJson(["apply", "random", "random_string", "--plan", planFile]);
    expect(replaced["action"]).toBe("replace");
    expect((replaced["state"] as State)["keepers"]).toEqual({ rotation: "2" });
    expect((replaced["state"] as State)["result"]).not.toBe(state["result"]);

    const destroyed = await magmaJson(["destroy", "random", "random_string", "--from", file("replaced.json", replaced)]);
    expect(destroyed).toEqual({ type: "random_string", action: "delete", state: null, private: "", warnings: [], sensitive_values: { state: false } });
  });

  test("--config and --state from standard input", async () => {
    const plan = await magmaJson(["plan", "random", "random_integer", "--config", "-"], { input: '{"min": 1, "max": 6, "seed": "dice"}' });
    expect(plan["action"]).toBe("create");
    const applied = await magmaJson(["apply", "random", "random_integer", "--config", '{"min": 1, "max": 6, "seed": "dice"}']);
    const n = (applied["state"] as State)["result"] as number;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(6);
    const read = await magmaJson(["read", "random", "random_integer", "--state", "-"], { input: JSON.stringify(applied["state"]) });
    expect(read["state"]).toEqual(applied["state"]);
  });

  test("human plan of a create: + lines, (known after apply), sensitive values hidden", async () => {
    const r = await magma(["plan", "random", "random_password", "--config", '{"length": 12, "keepers": {"k": "v"}}', "-o", "human"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  # random_password.this will be created");
    expect(r.stdout).toContain('  + resource "random_password" "this" {');
    expect(r.stdout).toMatch(/\+ length\s+= 12/);
    expect(r.stdout).toMatch(/\+ result\s+= \(sensitive value\)/);
    expect(r.stdout).toMatch(/\+ id\s+= \(known after apply\)/);
    expect(r.stdout).toMatch(/\+ keepers\s+= \{\n\s+\+ "k" = "v"\n\s+\}/);
    expect(r.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
  });

  test("human apply and read hide sensitive values", async () => {
    const r = await magma(["apply", "random", "random_password", "--config", '{"length": 12}', "-o", "human"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Apply complete: random_password.this created.");
    expect(r.stdout).toMatch(/result\s+= \(sensitive value\)/);
  });

  test("import reads the object by id", async () => {
    const j = await magmaJson(["import", "random", "random_string", "--id", "hello-magma"]);
    expect(j["type"]).toBe("random_string");
    expect(j["id"]).toBe("hello-magma");
    expect((j["state"] as State)["result"]).toBe("hello-magma");
    expect((j["state"] as State)["length"]).toBe(11);
    const h = await magma(["import", "random", "random_string", "--id", "abc", "-o", "human"]);
    expect(h.stdout).toContain('Import successful: random_string "abc".');
  });

  test("import with an id the provider rejects: exit 1 with its diagnostic", async () => {
    const r = await magma(["import", "random", "random_integer", "--id", "not-a-number"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: /);
  });

  test("upgrade a random_string state written with schema version 1", async () => {
    const v1 = { id: "abc", keepers: null, length: 3, lower: true, min_lower: 0, min_numeric: 0, min_special: 0, min_upper: 0, number: true, override_special: "", result: "abc", special: true, upper: true };
    const j = await magmaJson(["upgrade", "random", "random_string", "--version", "1", "--raw-state", file("v1.json", v1)]);
    const s = j["state"] as State;
    expect(s["result"]).toBe("abc");
    expect(s["numeric"]).toBe(true);
    expect(s["number"]).toBe(true);
  });

  test("data: random has no data sources, so the name is a resource type (exit 1 with a hint)", async () => {
    const r = await magma(["data", "random", "random_string"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[unknown_type]");
    expect(r.stderr).toContain("random_string is a resource type");
  });
});

describe("sensitive values: null on stdout (sensitive_values marks them), full in --out files (0600)", () => {
  // random_password's result (and bcrypt_hash) are sensitive; random_string has none.
  const never = (secrets: readonly string[], ...outputs: { stdout: string; stderr: string }[]): void => {
    for (const o of outputs) for (const s of secrets) {
      expect(o.stdout).not.toContain(s);
      expect(o.stderr).not.toContain(s);
    }
  };
  const read = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, "utf8")) as Record<string, unknown>;

  test("apply → plan → apply --plan → read → import → destroy: no secret on stdout or stderr, human or JSON; --out keeps them", async () => {
    const stateFile = join(dir, "pw-state.json");
    const applied = await magma(["apply", "random", "random_password", "--config", '{"length": 20, "special": false}', "--out", stateFile]);
    expect(applied.code).toBe(0);
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    const full = read(stateFile);
    const result = (full["state"] as State)["result"] as string;
    const hash = (full["state"] as State)["bcrypt_hash"] as string;
    expect(result).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(hash).toMatch(/^\$2a\$/);
    expect(full["sensitive_values"]).toEqual({ state: { result: true, bcrypt_hash: true } });
    // stdout: the same document with the sensitive values null.
    const shown = JSON.parse(applied.stdout) as Record<string, unknown>;
    expect((shown["state"] as State)["result"]).toBeNull();
    expect((shown["state"] as State)["bcrypt_hash"]).toBeNull();
    expect((shown["state"] as State)["length"]).toBe(20);
    expect(shown["sensitive_values"]).toEqual(full["sensitive_values"]);
    const secrets = [result, hash];

    const outputs = [applied];
    const planFile = join(dir, "pw-plan.json");
    const plan = await magma(["plan", "random", "random_password", "--from", stateFile, "--config", '{"length": 24, "special": false}', "--out", planFile]);
    expect(plan.code).toBe(0);
    outputs.push(plan);
    const planDoc = JSON.parse(plan.stdout) as Record<string, unknown>;
    expect(planDoc["action"]).toBe("replace");
    expect((planDoc["prior_state"] as State)["result"]).toBeNull();
    expect(planDoc["sensitive_values"]).toEqual({ prior_state: { result: true, bcrypt_hash: true }, config: {}, planned_state: {} });
    expect((read(planFile)["prior_state"] as State)["result"]).toBe(result);
    expect(statSync(planFile).mode & 0o777).toBe(0o600);

    const state2 = join(dir, "pw-state2.json");
    const replaced = await magma(["apply", "random", "random_password", "--plan", planFile, "--out", state2]);
    expect(replaced.code).toBe(0);
    outputs.push(replaced);
    const result2 = (read(state2)["state"] as State)["result"] as string;
    expect(result2).toMatch(/^[A-Za-z0-9]{24}$/);
    secrets.push(result2, (read(state2)["state"] as State)["bcrypt_hash"] as string);

    for (const args of [
      ["read", "random", "random_password", "--from", state2],
      ["read", "random", "random_password", "--from", state2, "-o", "human"],
      ["plan", "random", "random_password", "--from", state2, "--config", '{"length": 24, "special": false}', "-o", "human"],
      ["plan", "random", "random_password", "--from", state2, "--config", '{"length": 25}', "-o", "human"],
      ["apply", "random", "random_password", "--plan", planFile, "-o", "human"],
      ["import", "random", "random_password", "--id", result2],
      ["import", "random", "random_password", "--id", result2, "-o", "human"],
      ["destroy", "random", "random_password", "--from", state2],
    ]) {
      const r = await magma(args);
      expect([args, r.code]).toEqual([args, 0]);
      outputs.push(r);
      if (args[0] === "import" && !args.includes("human")) {
        // The id is the password: the imported state shows it as null, with the mark.
        const imported = JSON.parse(r.stdout) as Record<string, unknown>;
        expect((imported["state"] as State)["result"]).toBeNull();
        expect((imported["sensitive_values"] as State)["state"]).toEqual({ result: true, bcrypt_hash: true });
      }
    }
    never(secrets, ...outputs);
  });

  test("--show-sensitive prints the values on stdout", async () => {
    const r = await magmaJson(["apply", "random", "random_password", "--config", '{"length": 10}', "--show-sensitive"]);
    expect((r["state"] as State)["result"]).toMatch(/^.{10}$/);
    expect(r["sensitive_values"]).toEqual({ state: { result: true, bcrypt_hash: true } });
  });

  test("--from and --plan refuse a redacted output, with the hint", async () => {
    const redactedState = file("pw-redacted.json", (await magma(["apply", "random", "random_password", "--config", '{"length": 10}'])).stdout);
    for (const args of [
      ["read", "random", "random_password", "--from", redactedState],
      ["destroy", "random", "random_password", "--from", redactedState],
      ["plan", "random", "random_password", "--from", redactedState, "--config", '{"length": 10}'],
    ]) {
      const r = await magma(args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe("error: --from: the JSON is a redacted output: the sensitive value at state.result was printed as null\nhint: write it with --out FILE or --show-sensitive\n");
    }
    const fullState = join(dir, "pw-full.json");
    expect((await magma(["apply", "random", "random_password", "--config", '{"length": 10}', "--out", fullState])).code).toBe(0);
    const redactedPlan = file("pw-plan-redacted.json", (await magma(["plan", "random", "random_password", "--from", fullState, "--config", '{"length": 11}'])).stdout);
    const r = await magma(["apply", "random", "random_password", "--plan", redactedPlan]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--plan: the JSON is a redacted output: the sensitive value at prior_state.result was printed as null");
    expect(r.stderr).toContain("hint: write it with --out FILE or --show-sensitive");
    // The same output printed with --show-sensitive chains.
    const shown = file("pw-shown.json", (await magma(["apply", "random", "random_password", "--config", '{"length": 10}', "--show-sensitive"])).stdout);
    expect((await magma(["read", "random", "random_password", "--from", shown])).code).toBe(0);
  });

  test("--out replaces an existing file's mode with 0600 and works with the human form; an unwritable --out is a clear error", async () => {
    const p = file("pw-existing.json", "old");
    spawnSync("chmod", ["644", p]);
    const h = await magma(["apply", "random", "random_password", "--config", '{"length": 9}', "--out", p, "-o", "human"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/result\s+= \(sensitive value\)/);
    expect(statSync(p).mode & 0o777).toBe(0o600);
    expect((read(p)["state"] as State)["result"]).toMatch(/^.{9}$/);
    const bad = await magma(["apply", "random", "random_password", "--config", '{"length": 9}', "--out", join(dir, "no", "such", "dir.json")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("error: --out: cannot write");
  });

  test("nested: a sensitive attribute inside a block is masked at its path", async () => {
    // random_string has no sensitive attribute: its mask is the shape only, nothing is nulled.
    const j = await magmaJson(["apply", "random", "random_string", "--config", '{"length": 5, "keepers": {"a": "b"}}']);
    expect(j["sensitive_values"]).toEqual({ state: { keepers: {} } });
    expect((j["state"] as State)["result"]).toMatch(/^.{5}$/);
  });
});

describe("reap", () => {
  test("magma reap: JSON lists what was reaped (a dead host's directory in --socket-dir-parent), human says so", async () => {
    const parent = mkdtempSync(join(dir, "reap-"));
    const dead = spawnSync("true").pid!;
    const sock = join(parent, "magma-plugin-test1");
    spawnSync("mkdir", ["-m", "700", sock]);
    writeFileSync(
      join(sock, "owner.json"),
      JSON.stringify({ kind: "magma-provider-socket-dir", hostPid: dead, hostStartTime: null, providerPid: null, providerStartTime: null, binary: ["/x/terraform-provider-y"], cmdline: null }),
    );
    const j = await magmaJson(["reap", "--socket-dir-parent", parent]);
    expect(j["reaped"]).toEqual(expect.arrayContaining([{ directory: sock, host_pid: dead, provider_pid: null, binary: "/x/terraform-provider-y", outcome: "not_recorded" }]));
    expect(existsSync(sock)).toBe(false);
    const h = await magma(["reap", "--socket-dir-parent", parent, "-o", "human"]);
    expect(h.code).toBe(0);
    expect(h.stdout).not.toContain(parent);
  });
});

describe("bad input: exit 1, one line, a hint", () => {
  test.each([
    [["plan", "random", "random_string", "--config", "{bad"], "--config: invalid JSON at line 1 column 2"],
    [["plan", "random", "random_string", "--config", "[1]"], "--config: expected a JSON object, got an array"],
    [["plan", "random", "random_string", "--config", '{"length": "x"}'], "--config: config value at .length: a number is required"],
    [["plan", "random", "random_string", "--config", '{"nope": 1}'], 'no attribute or block type named "nope"'],
    [["plan", "random", "random_string", "--config", "/no/such/file.json"], '--config: "/no/such/file.json" is neither JSON nor an existing file'],
    [["plan", "random", "random_string", "--config", "@/no/such/file.json"], "cannot read"],
    [["plan", "random", "random_string", "--config", '{"length": 3}', "--private", "!!"], "--private: not base64"],
    [["read", "random", "random_string", "--state", '{"length": "abc"}'], "--state: .length: a number is required"],
    [["read", "random", "random_string", "--from", '{"nostate": 1}'], '--from: the JSON has no "state" member'],
    [["apply", "random", "random_string", "--plan", '{"type": "random_uuid"}'], "--plan: the plan is for random_uuid, not random_string"],
    [["apply", "random", "random_string", "--plan", '{"type": "random_string"}'], '--plan: missing "action"'],
    [["plan", "random", "random_string", "--provider-config", '{"x": 1}', "--config", "{}"], "--provider-config: "],
    [["upgrade", "random", "random_string", "--version", "1", "--raw-state", "[]"], "--raw-state: expected a JSON object"],
    [["plan", "random", "random_strin", "--config", "{}"], "[unknown_type]"],
    [["plan", "random", "random_string", "--config", '{"length": 0}'], "length value must be at least 1"],
  ])("%j", async (args, message) => {
    const r = await magma(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/^error: /);
  });

  test("a missing provider lists the directories searched, including --plugin-dir and MAGMA_PLUGIN_DIRS", async () => {
    const r = await magma(["schema", "example.com/acme/nothere", "--plugin-dir", "/tmp/magma-dir-a"], { env: { MAGMA_PLUGIN_DIRS: "/tmp/magma-dir-b:/tmp/magma-dir-c" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no provider example.com/acme/nothere");
    expect(r.stderr).toMatch(/Searched: \/tmp\/magma-dir-a, \/tmp\/magma-dir-b, \/tmp\/magma-dir-c, /);
    expect(r.stderr).toContain("hint: install it in one of the searched directories");
    expect(r.stderr.trim().split("\n")).toHaveLength(2);
  });

  test("a missing binary path", async () => {
    const r = await magma(["schema", "./no-such-provider"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no-such-provider");
    expect(r.stderr).toContain("hint: check the path of the provider binary");
  });

  test("a provider that crashes: the panic excerpt is in the hint", async () => {
    const crash = file("terraform-provider-crash", "#!/bin/sh\necho 'panic: runtime error: invalid memory address' >&2\necho 'goroutine 1 [running]:' >&2\nexit 2\n");
    spawnSync("chmod", ["+x", crash]);
    const r = await magma(["schema", crash]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toContain("panic: runtime error: invalid memory address");
  });

  test("a malformed source address", async () => {
    const r = await magma(["schema", "a/b/c/d"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("invalid provider source address");
    expect(r.stderr).toContain("hint: a provider is a source address");
  });
});

describe("progress and logs", () => {
  test("piped output has no spinner or terminal control characters", async () => {
    const r = await magma(["plan", "random", "random_string", "--config", '{"length": 4}']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toMatch(/[\r\x1b]/);
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  (hasScript ? test : test.skip)("on a terminal the spinner draws and erases itself, and output is human", () => {
    const r = spawnSync("script", ["-qec", `${process.execPath} ${MAGMA_BIN} plan random random_string --config '{"length": 4}'`, "/dev/null"], {
      encoding: "utf8",
      env: { ...process.env, TERM: "xterm" },
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("starting random (native)");
    expect(r.stdout).toContain("\x1b[2K");
    expect(r.stdout).toContain('+ resource "random_string" "this" {');
  });

  test("--log-level accepts only the known levels", async () => {
    const r = await magma(["schema", "random", "--log-level", "loud"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Allowed choices are off, error, warn, info, debug, trace");
  });
});

describe("demo", () => {
  test("magma demo --no-aws: the native lifecycle, narrated, exit 0", async () => {
    const r = await magma(["demo", "--no-aws"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    for (const step of ["1. schema", "2. configure", "3. plan: create", "4. apply", "5. read", "6. import", "7. plan: a replacing change", "8. destroy"]) expect(r.stdout).toContain(step);
    expect(r.stdout).toContain("-/+ resource \"random_string\" \"demo\" {");
    expect(r.stdout).toContain("# forces replacement");
    expect(r.stdout).toContain("hashicorp/aws part skipped");
  });
});
