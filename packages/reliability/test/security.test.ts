// Item 4 — security: AutoMTLS on by default and a client without the certificate refused;
// the private socket directory is 0700; the provider's environment is exactly the documented
// one; sensitive values and provider-config secrets stay out of magma's log lines, its error
// messages and the CLI's output (human, and JSON unless --show-sensitive; --out files are 0600).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect as http2Connect } from "node:http2";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { fromJson, fromMsgpack, listType, numberType, objectType, objectVal, stringType, stringVal, toMsgpack, nullVal, boolType } from "@magma/cty";
import { runCli, type CliIo } from "@magma/cli";
import { configValue, dialConfiguredProvider, type LiveProvider, type PluginLogEntry } from "@magma/plugin";
import { FaultMode } from "../src/fault-mode.js";
import { faultDataType, faultThingType } from "../src/fault-provider.js";
import { faultWorkspace, readRecord, rejection } from "./support.js";

const SECRET_KEY = "sk-9f1c2e7a-provider-config-secret";
const SECRET_ATTR = "pw-4b8d0c3e-sensitive-attribute";

let ws: ReturnType<typeof faultWorkspace>;
let n = 0;
beforeAll(() => {
  ws = faultWorkspace();
});
afterAll(() => ws.cleanup());

async function dial(extra: Record<string, unknown> = {}, env: Record<string, string | undefined> = process.env) {
  const record = join(ws.dir, `sec-${++n}.jsonl`);
  const entries: PluginLogEntry[] = [];
  const live = await dialConfiguredProvider({
    binary: ws.binary,
    env: { ...env, FAULT_MODE: FaultMode.Normal, FAULT_RECORD: record },
    schemaCacheDir: false,
    logger: { log: (e) => entries.push(e) },
    config: { access_key: "AKIDEXAMPLE", secret_key: SECRET_KEY },
    ...extra,
  });
  const recorded = readRecord(record).find((e) => e.event === "env")!;
  return { live, entries, env: recorded.env!, socketDir: recorded.env!["PLUGIN_UNIX_SOCKET_DIR"]! };
}

async function closing<T>(live: LiveProvider, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    await live.close();
  }
}

describe("AutoMTLS and the socket", () => {
  test("AutoMTLS is on by default; the socket dir is 0700 and holds only the socket and owner.json (0600); a client without the certificate is refused", async () => {
    const saved = process.env["TF_DISABLE_PLUGIN_TLS"];
    delete process.env["TF_DISABLE_PLUGIN_TLS"];
    const { live, env, socketDir } = await dial().finally(() => {
      if (saved !== undefined) process.env["TF_DISABLE_PLUGIN_TLS"] = saved;
    });
    await closing(live, async () => {
      expect(env["PLUGIN_CLIENT_CERT"]).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      const files = readdirSync(socketDir);
      expect(files).toHaveLength(2);
      expect(files).toContain("owner.json"); // for the reaper of a later host (docs/reliability.md)
      expect(statSync(join(socketDir, "owner.json")).mode & 0o777).toBe(0o600);
      const socket = join(socketDir, files.find((f) => f !== "owner.json")!);
      expect(statSync(socket).isSocket()).toBe(true);

      // TLS without a client certificate: the server refuses (TLS alert "certificate required").
      const tlsOutcome = await new Promise<string>((resolve) => {
        const s = tlsConnect({ path: socket, servername: "localhost", rejectUnauthorized: false, ALPNProtocols: ["h2"] });
        s.on("error", (e) => resolve(`error: ${e.message}`));
        s.on("close", () => resolve("closed"));
        s.on("data", () => resolve("data"));
        s.on("secureConnect", () => s.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
      });
      expect(tlsOutcome).toMatch(/certificate required|closed|alert/i);
      expect(tlsOutcome).not.toBe("data");

      // Plaintext HTTP/2 (no TLS at all): a health check does not get through.
      const plain = await new Promise<string>((resolve) => {
        const session = http2Connect("http://localhost", { socketPath: socket } as never);
        session.on("error", (e) => resolve(`error: ${e.message}`));
        const req = session.request({ ":method": "POST", ":path": "/grpc.health.v1.Health/Check", "content-type": "application/grpc" });
        req.on("response", (h) => resolve(`response ${String(h[":status"])}`));
        req.on("error", (e) => resolve(`error: ${e.message}`));
        req.end(Buffer.from([0, 0, 0, 0, 0]));
        setTimeout(() => resolve("timeout"), 5000).unref();
        req.on("close", () => session.close());
      });
      expect(plain).not.toMatch(/^response 200/);

      // magma itself, with the certificate, works.
      const r = await live.provider.readDataSource(faultDataType, configValue(live.schema.dataSources.get(faultDataType)!.block, { name: "n" }));
      expect(r.state.getAttr("name").asString()).toBe("n");
    });
    expect(existsSync(socketDir)).toBe(false);
  });
});

describe("the provider's environment", () => {
  const added = (env: Record<string, string>) =>
    Object.keys(env)
      .filter((k) => /^(TF_PLUGIN_MAGIC_COOKIE|PLUGIN_.*|TF_LOG_SDK.*)$/.test(k))
      .sort();

  test("with env given: exactly env plus the documented go-plugin variables (nothing of the host's leaks in)", async () => {
    process.env["MAGMA_TEST_HOST_ONLY"] = "host-value";
    try {
      const { live, env } = await dial({}, { PATH: process.env["PATH"], FOO: "bar" });
      await live.close();
      const shell = new Set(["PWD", "SHLVL", "_", "OLDPWD"]); // what /bin/sh (the launcher) itself exports
      const keys = Object.keys(env).filter((k) => !shell.has(k)).sort();
      expect(keys).toEqual(
        [
          "FAULT_MODE",
          "FAULT_RECORD",
          "FOO",
          "PATH",
          "PLUGIN_CLIENT_CERT",
          "PLUGIN_MAX_PORT",
          "PLUGIN_MIN_PORT",
          "PLUGIN_PROTOCOL_VERSIONS",
          "PLUGIN_UNIX_SOCKET_DIR",
          "TF_LOG_SDK",
          "TF_LOG_SDK_FRAMEWORK",
          "TF_LOG_SDK_HELPER_SCHEMA",
          "TF_LOG_SDK_MUX",
          "TF_LOG_SDK_PROTO",
          "TF_PLUGIN_MAGIC_COOKIE",
        ].sort(),
      );
      expect(env["MAGMA_TEST_HOST_ONLY"]).toBeUndefined();
      expect(env["PLUGIN_PROTOCOL_VERSIONS"]).toBe("5,6");
    } finally {
      delete process.env["MAGMA_TEST_HOST_ONLY"];
    }
  });

  test("by default: the host's environment plus the same variables (as go-plugin does)", async () => {
    const record = join(ws.dir, "default-env.jsonl");
    process.env["FAULT_RECORD"] = record;
    try {
      const live = await dialConfiguredProvider({ binary: ws.binary, schemaCacheDir: false, tls: true });
      await live.close();
    } finally {
      delete process.env["FAULT_RECORD"];
    }
    const env = readRecord(record).find((e) => e.event === "env")!.env!;
    expect(added(env)).toEqual(["PLUGIN_CLIENT_CERT", "PLUGIN_MAX_PORT", "PLUGIN_MIN_PORT", "PLUGIN_PROTOCOL_VERSIONS", "PLUGIN_UNIX_SOCKET_DIR", "TF_LOG_SDK", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_SDK_MUX", "TF_LOG_SDK_PROTO", "TF_PLUGIN_MAGIC_COOKIE"]);
    for (const [k, v] of Object.entries(process.env)) if (!/^(PLUGIN_|TF_LOG_SDK|TF_PLUGIN_MAGIC_COOKIE)/.test(k)) expect([k, env[k]]).toEqual([k, v]);
  });
});

describe("secrets stay out of magma's logs and errors", () => {
  test("a provider-config secret and sensitive values: not in magma's own log lines nor in its error messages", async () => {
    const { live, entries } = await dial();
    const errors: string[] = [];
    await closing(live, async () => {
      const { provider, schema } = live;
      const thing = schema.resources.get(faultThingType)!;
      const cfg = configValue(thing.block, { name: "a", secret: SECRET_ATTR });
      const plan = await provider.planResourceChange(faultThingType, nullVal(thing.type), cfg, cfg);
      const applied = await provider.applyResourceChange(faultThingType, nullVal(thing.type), plan.plannedState, cfg);
      expect(applied.newState.getAttr("secret").asString()).toBe(SECRET_ATTR);
      const data = await provider.readDataSource(faultDataType, configValue(schema.dataSources.get(faultDataType)!.block, { name: "n" }));
      expect(data.state.getAttr("token").asString()).toContain(SECRET_KEY);
      // A value that does not conform to the schema: [schema] error, quoting no value.
      const bad = objectVal({ id: nullVal(stringType), name: stringVal("a"), secret: stringVal(SECRET_ATTR), extra: stringVal(SECRET_ATTR) });
      errors.push((await rejection(() => provider.planResourceChange(faultThingType, nullVal(thing.type), bad, bad))).message);
      // A sensitive provider attribute given as something that is no string.
      errors.push((await rejection(() => provider.configure(configValue(schema.provider.block, { secret_key: [SECRET_KEY] }), "1.11.4"))).message);
    });
    expect(errors).toHaveLength(2);
    for (const m of errors) {
      expect(m).not.toContain(SECRET_KEY);
      expect(m).not.toContain(SECRET_ATTR);
    }
    const own = entries.filter((e) => e.source === "host");
    expect(own.length).toBeGreaterThan(0);
    const text = JSON.stringify(own);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(SECRET_ATTR);
  });

  test("decode errors of responses (invalid_response) and of config (schema) never quote the value", () => {
    const enc = toMsgpack(objectVal({ s: stringVal(SECRET_ATTR) }), objectType({ s: stringType }));
    const messages: string[] = [];
    for (const t of [numberType, boolType, listType(stringType)]) {
      try {
        fromMsgpack(enc, objectType({ s: t }));
      } catch (e) {
        messages.push((e as Error).message);
      }
      try {
        fromJson(JSON.stringify({ s: SECRET_ATTR }), objectType({ s: t }));
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    for (const [t, v] of [[numberType, SECRET_KEY], [boolType, SECRET_KEY]] as const) {
      try {
        configValue({ attributes: { k: { type: t, optional: true, sensitive: true } } }, { k: v });
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    expect(messages).toHaveLength(8);
    for (const m of messages) {
      expect(m).not.toContain(SECRET_ATTR);
      expect(m).not.toContain(SECRET_KEY);
    }
  });
});

describe("secrets in the magma CLI", () => {
  function io(): { io: CliIo; out: () => string; err: () => string } {
    let out = "";
    let err = "";
    return {
      io: { stdout: { isTTY: false, write: (s: string) => (out += s) }, stderr: { isTTY: false, write: (s: string) => (err += s) }, env: { ...process.env, FAULT_MODE: "normal" } },
      out: () => out,
      err: () => err,
    };
  }

  test("human output hides sensitive values; errors with a bad secret quote nothing; the provider-config secret never shows", async () => {
    const a = io();
    expect(
      await runCli(["apply", ws.binary, faultThingType, "--output", "human", "--provider-config", JSON.stringify({ secret_key: SECRET_KEY }), "--config", JSON.stringify({ name: "a", secret: SECRET_ATTR })], a.io),
    ).toBe(0);
    expect(a.out()).toMatch(/secret\s+= \(sensitive value\)/);
    expect(a.out() + a.err()).not.toContain(SECRET_ATTR);
    expect(a.out() + a.err()).not.toContain(SECRET_KEY);

    const d = io();
    expect(await runCli(["data", ws.binary, faultDataType, "--output", "human", "--provider-config", JSON.stringify({ secret_key: SECRET_KEY }), "--config", '{"name":"n"}'], d.io)).toBe(0);
    expect(d.out()).toMatch(/token\s+= \(sensitive value\)/);
    expect(d.out() + d.err()).not.toContain(SECRET_KEY);

    const bad = io();
    expect(await runCli(["data", ws.binary, faultDataType, "--json", "--provider-config", JSON.stringify({ secret_key: [SECRET_KEY] })], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/^error: .*secret_key/);
    expect(bad.out() + bad.err()).not.toContain(SECRET_KEY);
  });

  test("JSON output: sensitive values (a sensitive attribute, and a data source value holding the provider-config secret) are null, marked in sensitive_values; --show-sensitive prints them", async () => {
    const pc = JSON.stringify({ secret_key: SECRET_KEY });
    const j = io();
    expect(await runCli(["apply", ws.binary, faultThingType, "--json", "--provider-config", pc, "--config", JSON.stringify({ name: "a", secret: SECRET_ATTR })], j.io)).toBe(0);
    const doc = JSON.parse(j.out()) as { state: { secret: string | null; name: string }; sensitive_values: unknown };
    expect(doc.state).toEqual(expect.objectContaining({ name: "a", secret: null }));
    expect(doc.sensitive_values).toEqual({ state: { secret: true } });
    expect(j.out() + j.err()).not.toContain(SECRET_ATTR);
    expect(j.out() + j.err()).not.toContain(SECRET_KEY);

    const d = io();
    expect(await runCli(["data", ws.binary, faultDataType, "--json", "--provider-config", pc, "--config", '{"name":"n"}'], d.io)).toBe(0);
    expect(JSON.parse(d.out())).toEqual(expect.objectContaining({ state: { name: "n", token: null }, sensitive_values: { state: { token: true } } }));
    expect(d.out() + d.err()).not.toContain(SECRET_KEY);

    const shown = io();
    expect(await runCli(["data", ws.binary, faultDataType, "--json", "--show-sensitive", "--provider-config", pc, "--config", '{"name":"n"}'], shown.io)).toBe(0);
    expect((JSON.parse(shown.out()) as { state: { token: string } }).state.token).toBe(`token:${SECRET_KEY}:n`);
  });

  test("every command, JSON and human: neither secret on stdout or stderr; --out files (0600) hold them and chain", async () => {
    const pc = JSON.stringify({ secret_key: SECRET_KEY });
    const stateFile = join(ws.dir, "cli-state.json");
    const planFile = join(ws.dir, "cli-plan.json");
    const runs: [string[], ReturnType<typeof io>][] = [];
    const run = async (args: string[]): Promise<ReturnType<typeof io>> => {
      const r = io();
      expect([args.join(" "), await runCli(args, r.io)]).toEqual([args.join(" "), 0]);
      runs.push([args, r]);
      return r;
    };
    const thing = ["--provider-config", pc, "--config", JSON.stringify({ name: "a", secret: SECRET_ATTR })];
    for (const format of ["json", "human"]) {
      await run(["plan", ws.binary, faultThingType, "-o", format, ...thing]);
      await run(["plan", ws.binary, faultThingType, "-o", format, ...thing, "--out", planFile]);
      await run(["apply", ws.binary, faultThingType, "-o", format, "--provider-config", pc, "--plan", planFile, "--out", stateFile]);
      await run(["read", ws.binary, faultThingType, "-o", format, "--provider-config", pc, "--from", stateFile]);
      await run(["plan", ws.binary, faultThingType, "-o", format, ...thing, "--from", stateFile]);
      await run(["data", ws.binary, faultDataType, "-o", format, "--provider-config", pc, "--config", '{"name":"n"}']);
      await run(["destroy", ws.binary, faultThingType, "-o", format, "--provider-config", pc, "--from", stateFile]);
      await run(["schema", ws.binary, faultThingType, "-o", format]);
    }
    for (const [args, r] of runs) {
      for (const secret of [SECRET_ATTR, SECRET_KEY]) expect([args.join(" "), r.out() + r.err()]).toEqual([args.join(" "), expect.not.stringContaining(secret)]);
    }
    // The files written with --out: mode 0600, the full values.
    for (const f of [planFile, stateFile]) expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readFileSync(planFile, "utf8")).toContain(SECRET_ATTR);
    expect(readFileSync(stateFile, "utf8")).toContain(SECRET_ATTR);
  });

  test("--from with a redacted output fails with the hint", async () => {
    const pc = JSON.stringify({ secret_key: SECRET_KEY });
    const a = io();
    expect(await runCli(["apply", ws.binary, faultThingType, "--json", "--provider-config", pc, "--config", JSON.stringify({ name: "a", secret: SECRET_ATTR })], a.io)).toBe(0);
    const redacted = join(ws.dir, "cli-redacted.json");
    writeFileSync(redacted, a.out());
    const r = io();
    expect(await runCli(["read", ws.binary, faultThingType, "--json", "--provider-config", pc, "--from", redacted], r.io)).toBe(1);
    expect(r.err()).toBe("error: --from: the JSON is a redacted output: the sensitive value at state.secret was printed as null\nhint: write it with --out FILE or --show-sensitive\n");
    expect(r.out()).toBe("");
  });
});
