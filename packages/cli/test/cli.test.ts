// The built `magma` executable, run as a child process against the native random provider:
// every command, its JSON and human forms, chaining through files and stdin, and bad input.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  test.each(["schema", "plan", "apply", "destroy", "read", "data", "import", "upgrade", "demo"])("magma %s --help", async (cmd) => {
    const r = await magma([cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: magma ${cmd}`);
    expect(r.stderr).toBe("");
  });

  test("magma --help lists every command, the provider forms and the exit codes", async () => {
    const r = await magma(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["schema", "plan", "apply", "destroy", "read", "data", "import", "upgrade", "demo"]) expect(r.stdout).toContain(`  ${c} `);
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
    expect(r.stdout).toMatch(/resources:\s+6/);
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
    expect(Object.keys(explicit)).toEqual(["provider", "resource_schemas"]);
    const rs = (explicit["resource_schemas"] as Record<string, { version: number; block: { attributes: Record<string, Record<string, unknown>> } }>)["random_string"]!;
    expect(rs.version).toBe(2);
    expect(rs.block.attributes["length"]).toEqual(expect.objectContaining({ type: "number", required: true, description_kind: "plain" }));
    expect(rs.block.attributes["keepers"]).toEqual(expect.objectContaining({ type: ["map", "string"], optional: true }));
  });

  test("one type --json", async () => {
    const j = await magmaJson(["schema", "random", "random_uuid", "--json"]);
    expect(Object.keys(j)).toEqual(["resource_schema"]);
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
    expect(destroyed).toEqual({ type: "random_string", action: "delete", state: null, private: "", warnings: [] });
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

describe("bad input: exit 1, one line, a hint", () => {
  test.each([
    [["plan", "random", "random_string", "--config", "{bad"], "--config: invalid JSON at line 1 column 2"],
    [["plan", "random", "random_string", "--config", "[1]"], "--config: expected a JSON object, got an array"],
    [["plan", "random", "random_string", "--config", '{"length": "x"}'], "--config: config value at .length: a number is required"],
    [["plan", "random", "random_string", "--config", '{"nope": 1}'], 'no attribute or block type named "nope"'],
    [["plan", "random", "random_string", "--config", "/no/such/file.json"], "is neither JSON nor an existing file"],
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
