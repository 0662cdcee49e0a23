// Issue 14, the CLI's part, through the built `magma` executable: no secret in human or
// JSON output wherever the schema puts it (v6 nested attributes of every nesting, at any
// depth, under any map key including `__proto__`); `__proto__` and `constructor` are
// ordinary keys on every input path; JSON syntax errors never quote the input; invalid
// UTF-8 in an input file is refused with its byte offset.
//
// The sensitive attributes come from test/testdata/secret-provider.mjs, a native provider
// served over protocol 6 by @magma/provider-server (a real plugin to magma).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mapVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { writeProviderLauncher } from "@magma/provider-server";
import { unknownMask } from "../src/index.js";
import { MAGMA_BIN, cleanUp, magma, magmaJson, type MagmaResult } from "./support/run-magma.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "testdata", "secret-provider.mjs");

let dir: string;
let vault: string;

beforeAll(() => {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  dir = mkdtempSync(join(tmpdir(), "magma-cli-hard-"));
  vault = writeProviderLauncher({ mirrorDir: join(dir, "mirror"), hostname: "example.com", type: "vault", version: "1.0.0", module: fixture, protocolVersions: [6] }).executable;
});

afterAll(() => {
  cleanUp();
  rmSync(dir, { recursive: true, force: true });
});

type Doc = Record<string, unknown>;

const path = (name: string): string => join(dir, name);
const file = (name: string, content: string | Uint8Array): string => {
  writeFileSync(path(name), content);
  return path(name);
};
const never = (secrets: readonly string[], ...outputs: MagmaResult[]): void => {
  for (const o of outputs) for (const s of secrets) expect([s, o.stdout + o.stderr]).toEqual([s, expect.not.stringContaining(s)]);
};

describe("sensitive attributes inside v6 nested attributes: never printed (issue 14 #3)", () => {
  const SECRETS = ["HUNTER2-SECRET", "FACTOR-SECRET", "LIST-SECRET", "PROTO-SECRET", "MAP-SECRET", "BLOCK-SECRET"];
  const config = {
    name: "a",
    login: { user: "u", password: "HUNTER2-SECRET", factors: [{ kind: "totp", code: "FACTOR-SECRET" }] },
    logins: [{ user: "x", password: "LIST-SECRET" }],
    by_env: { ["__proto__"]: { password: "PROTO-SECRET" }, prod: { password: "MAP-SECRET" } },
    backend: [{ url: "https://vault.example", auth: { key: "BLOCK-SECRET" } }],
  };
  // A computed key makes "__proto__" an own member, which JSON.stringify writes as it is.
  const configJson = JSON.stringify(config);
  const expectedMask = {
    login: { password: true, factors: [{ code: true }] },
    logins: [{ password: true }],
    by_env: JSON.parse('{"__proto__": {"password": true}, "prod": {"password": true}}') as unknown,
    backend: [{ auth: { key: true } }],
  };

  // About ten magma processes in one test: a generous timeout for a loaded 2-core machine (60 s was hit under load).
  test("plan, apply, read, update plan, destroy plan, human and JSON: the secrets stay out; --out keeps them", async () => {
    expect(configJson).toContain('"__proto__":{"password":"PROTO-SECRET"}');
    const outputs: MagmaResult[] = [];
    const plan = await magma(["plan", vault, "vault_secret", "--config", configJson, "-o", "human"]);
    expect(plan.code).toBe(0);
    outputs.push(plan);
    expect(plan.stdout).toMatch(/\+ password = \(sensitive value\)\n/);
    expect(plan.stdout).toMatch(/\+ code = \(sensitive value\)\n/);
    expect(plan.stdout).toMatch(/\+ key = \(sensitive value\)\n/);
    expect(plan.stdout).toContain('+ "__proto__" = {');
    expect(plan.stdout).toMatch(/\+ user\s+= "u"\n/);

    const stateFile = path("vault-state.json");
    const applied = await magma(["apply", vault, "vault_secret", "--config", configJson, "--json", "--out", stateFile]);
    expect(applied.code).toBe(0);
    outputs.push(applied);
    const shown = JSON.parse(applied.stdout) as Doc;
    expect((shown["sensitive_values"] as Doc)["state"]).toEqual(expectedMask);
    const full = JSON.parse(readFileSync(stateFile, "utf8")) as Doc;
    for (const s of SECRETS) expect(JSON.stringify(full)).toContain(s);

    const changed = configJson.replaceAll("-SECRET", "-SECRET2");
    // None of these writes a file (no --out): side by side.
    const runs = [
      ["read", vault, "vault_secret", "--from", stateFile, "-o", "human"],
      ["read", vault, "vault_secret", "--from", stateFile, "--json"],
      ["apply", vault, "vault_secret", "--config", configJson, "-o", "human"],
      ["plan", vault, "vault_secret", "--from", stateFile, "--config", changed, "-o", "human"],
      ["plan", vault, "vault_secret", "--from", stateFile, "--config", changed, "--json"],
      ["plan", vault, "vault_secret", "--from", stateFile, "--destroy", "-o", "human"],
      ["plan", vault, "vault_secret", "--from", stateFile, "--destroy", "--json"],
      ["destroy", vault, "vault_secret", "--from", stateFile, "-o", "human"],
    ];
    const results = await Promise.all(runs.map((args) => magma(args)));
    runs.forEach((args, i) => {
      const r = results[i]!;
      expect([args, r.code, r.stderr]).toEqual([args, 0, ""]);
      outputs.push(r);
    });
    const update = outputs[5]!;
    expect(update.stdout).toContain("~ password = (sensitive value)");
    expect(update.stdout).toContain('~ "__proto__" = {');
    const read = outputs[2]!;
    expect(read.stdout).toContain('login  = { factors = [{ code = (sensitive value), kind = "totp" }], password = (sensitive value), user = "u" }');
    never([...SECRETS, ...SECRETS.map((s) => `${s}2`)], ...outputs);
  }, 300_000);

  test("a sensitive value under the map key __proto__ is null in JSON output (state given with --state, --raw-state)", async () => {
    const state = {
      id: "vs-b",
      name: "b",
      tags: null,
      login: null,
      logins: null,
      by_env: JSON.parse('{"__proto__": {"note": "n", "password": "PROTO-ONLY-SECRET"}}') as unknown,
      backend: [],
    };
    const text = JSON.stringify(state);
    expect(text).toContain("PROTO-ONLY-SECRET");
    const read = await magma(["read", vault, "vault_secret", "--state", text, "--json"]);
    const upgraded = await magma(["upgrade", vault, "vault_secret", "--version", "0", "--raw-state", text, "--json"]);
    for (const r of [read, upgraded]) {
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as Doc;
      const byEnv = (doc["state"] as Doc)["by_env"] as Doc;
      expect(Object.keys(byEnv)).toEqual(["__proto__"]);
      expect(Object.getOwnPropertyDescriptor(byEnv, "__proto__")?.value).toEqual({ note: "n", password: null });
      expect(JSON.stringify((doc["sensitive_values"] as Doc)["state"])).toBe('{"by_env":{"__proto__":{"password":true}},"backend":[]}');
    }
    never(["PROTO-ONLY-SECRET"], read, upgraded);
    const human = await magma(["read", vault, "vault_secret", "--state", text, "-o", "human"]);
    expect(human.stdout).toContain('by_env = { "__proto__" = { note = "n", password = (sensitive value) } }');
    never(["PROTO-ONLY-SECRET"], human);
  }, 300_000);

  test("unknownMask keeps a map key __proto__ as an own member", () => {
    const m = unknownMask(mapVal(new Map([["__proto__", unknownVal(stringType)], ["b", stringVal("x")]]))) as Doc;
    expect(Object.getPrototypeOf(m)).toBeNull();
    expect(Object.hasOwn(m, "__proto__")).toBe(true);
    expect(JSON.stringify(Object.entries(m))).toBe('[["__proto__",true]]');
  });
});

describe("__proto__ and constructor on every input path (issue 14 #4)", () => {
  const keepers = (doc: Doc, member: string): Doc => (doc[member] as Doc)["keepers"] as Doc;
  const PROTO_KEEPERS = '{"__proto__": "p", "constructor": "c"}';

  test("--config: a map key __proto__ is kept; a top-level __proto__ is refused like constructor", async () => {
    const plan = await magmaJson(["plan", "random", "random_string", "--config", `{"length": 4, "keepers": ${PROTO_KEEPERS}}`]);
    expect(JSON.stringify(keepers(plan, "config"))).toBe('{"__proto__":"p","constructor":"c"}');
    const cases = ["__proto__", "constructor"].flatMap((key) => ['{"x": 1}', "1", "null"].map((value) => [key, value] as const));
    // Independent runs: side by side.
    const results = await Promise.all(cases.map(([key, value]) => magma(["plan", "random", "random_string", "--config", `{"length": 4, "${key}": ${value}}`])));
    cases.forEach(([key, value], i) => {
      const r = results[i]!;
      expect([key, value, r.code]).toEqual([key, value, 1]);
      expect(r.stderr).toContain(`--config: config value at .${key}: no attribute or block type named "${key}"`);
    });
  }, 300_000);

  test("--provider-config: a top-level __proto__ is refused like constructor", async () => {
    for (const key of ["__proto__", "constructor"]) {
      const r = await magma(["plan", vault, "vault_secret", "--provider-config", `{"region": "x", "${key}": {}}`, "--config", '{"name": "a"}']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`--provider-config: config value at .${key}: no attribute or block type named "${key}"`);
    }
  }, 300_000);

  test("--state, --from, --plan, --raw-state: a map key __proto__ is kept; a top-level one is refused", async () => {
    const planFile = path("proto-plan.json");
    const stateFile = path("proto-state.json");
    expect((await magma(["plan", "random", "random_string", "--config", `{"length": 4, "keepers": ${PROTO_KEEPERS}}`, "--out", planFile])).code).toBe(0);
    const applied = await magmaJson(["apply", "random", "random_string", "--plan", planFile, "--out", stateFile]);
    expect(JSON.stringify(keepers(applied, "state"))).toBe('{"__proto__":"p","constructor":"c"}');
    const fromRead = await magmaJson(["read", "random", "random_string", "--from", stateFile]);
    expect(JSON.stringify(keepers(fromRead, "state"))).toBe('{"__proto__":"p","constructor":"c"}');
    const stateText = JSON.stringify((JSON.parse(readFileSync(stateFile, "utf8")) as Doc)["state"]);
    const stateRead = await magmaJson(["read", "random", "random_string", "--state", stateText]);
    expect(JSON.stringify(keepers(stateRead, "state"))).toBe('{"__proto__":"p","constructor":"c"}');
    const upgraded = await magmaJson(["upgrade", vault, "vault_secret", "--version", "0", "--raw-state", '{"id": "i", "name": "n", "tags": {"__proto__": "t"}}']);
    expect(JSON.stringify((upgraded["state"] as Doc)["tags"])).toBe('{"__proto__":"t"}');

    const withTopLevel = (text: string): string => text.replace(/^\{/, '{"__proto__": {"id": "x"}, ');
    for (const [args, message] of [
      [["read", "random", "random_string", "--state", withTopLevel(stateText)], '--state: unsupported attribute "__proto__"'],
      [["read", "random", "random_string", "--from", file("proto-from.json", `{"state": ${withTopLevel(stateText)}}`)], '--from: state: unsupported attribute "__proto__"'],
      [["upgrade", vault, "vault_secret", "--version", "0", "--raw-state", withTopLevel('{"id": "i", "name": "n"}')], '"__proto__"'],
    ] as const) {
      const r = await magma(args);
      expect([args, r.code]).toEqual([args, 1]);
      expect(r.stderr).toContain(message);
    }
  }, 300_000);
});

describe("JSON syntax errors name the line and column, never the text (issue 14 #6)", () => {
  test.each([
    [["--provider-config", '{"secret_key": SUPERSECRET123}'], "--provider-config: invalid JSON at line 1 column 16 (found a letter): expected a value"],
    [["--provider-config", '{\n  "region": "x",\n  "token": "abc\u0001SUPERSECRET123"\n}'], "--provider-config: invalid JSON at line 3 column 16 (found a control character): control character in string"],
    [["--provider-config", '{"token": "SUPERSECRET123", "token": "SUPERSECRET123"}'], "--provider-config: invalid JSON at line 1 column 29 (found '\"'): duplicate key"],
    [["--provider-config", "SUPERSECRET123"], "--provider-config: the argument (14 characters) is neither JSON nor an existing file"],
    [["--config", '{"name": "a", "login": {"password": 1SUPERSECRET123}}'], "--config: invalid JSON at line 1 column 38 (found a letter): expected \",\" or \"}\""],
    [["--config", '{"name": "a"}', "--state", '{"login": {"password": "SUPERSECRET123"}'], "--state: invalid JSON at line 1 column 41 at end of input"],
    [["--config", '{"name": "a"}', "--private", "SUPERSECRET123!"], "--private: not base64: a character that is not base64 at offset 14"],
  ])("%j", async (args, message) => {
    const r = await magma(["plan", vault, "vault_secret", ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    never(["SUPERSECRET1", "SUPERSECRET", "SUPER"], r);
  }, 300_000);

  test("a secret in a file given with @FILE is not quoted either", async () => {
    const f = file("bad-provider-config.json", '{"region": "eu",\n "token": SUPERSECRET123}');
    const r = await magma(["plan", vault, "vault_secret", "--provider-config", `@${f}`, "--config", '{"name": "a"}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--provider-config: invalid JSON at line 2 column 11 (found a letter): expected a value");
    never(["SUPER"], r);
  }, 300_000);
});

describe("invalid UTF-8 in an input is refused with the file and byte offset (issue 14 #9)", () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const concat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

  test.each([
    ["a lone 0xff", concat(enc('{"length": 4, "keepers": {"a": "x'), Uint8Array.of(0xff), enc('"}}')), 33],
    ["a truncated sequence", concat(enc('{"length": 4, "keepers": {"a": "\u00e9'), Uint8Array.of(0xe2, 0x82), enc('"}}')), 34],
    ["an overlong NUL (C0 80)", concat(enc('{"length": 4, "keepers": {"a": "'), Uint8Array.of(0xc0, 0x80), enc('"}}')), 32],
    ["a UTF-16 surrogate (ED A0 80)", concat(enc('{"length": 4, "keepers": {"a": "'), Uint8Array.of(0xed, 0xa0, 0x80), enc('"}}')), 32],
  ])("--config FILE with %s", async (name, bytes, offset) => {
    const f = file(`bad-utf8-${name.replace(/\W+/g, "-")}.json`, bytes);
    for (const arg of [f, `@${f}`]) {
      const r = await magma(["plan", "random", "random_string", "--config", arg]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`error: --config: ${JSON.stringify(f)} is not valid UTF-8: invalid byte sequence at byte offset ${offset}\nhint: save the file as UTF-8\n`);
    }
  }, 300_000);

  test("standard input, --state and --plan files too; valid multi-byte text is accepted", async () => {
    const bad = concat(enc('{"length": 4, "keepers": {"a": "'), Uint8Array.of(0x80), enc('"}}'));
    const stdin = await magma(["plan", "random", "random_string", "--config", "-"], { input: bad });
    expect(stdin.stderr).toContain("error: --config: standard input is not valid UTF-8: invalid byte sequence at byte offset 32");
    const state = await magma(["read", "random", "random_string", "--state", file("bad-state.json", bad)]);
    expect(state.stderr).toContain("is not valid UTF-8: invalid byte sequence at byte offset 32");
    const plan = await magma(["apply", "random", "random_string", "--plan", file("bad-plan.json", bad)]);
    expect(plan.stderr).toContain("error: --plan: ");
    expect(plan.stderr).toContain("is not valid UTF-8");
    const good = await magmaJson(["plan", "random", "random_string", "--config", file("good-utf8.json", enc('{"length": 4, "keepers": {"k\u00e9": "\u20ac\u{1f600}"}}'))]);
    expect(keepersOf(good)).toEqual({ "k\u00e9": "\u20ac\u{1f600}" });
  }, 300_000);

  const keepersOf = (doc: Doc): unknown => (doc["config"] as Doc)["keepers"];
});
