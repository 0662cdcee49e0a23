// Records what terraform sends as PlanResourceChange requests (prior_state, config,
// proposed_new_state) to a fake tfplugin6 provider, for the proposedNewState fixture test.
//
// Usage (from packages/provider-api, after `pnpm --filter @magma/tfplugin build`, whose
// dist holds the generated tfplugin6 code):
//     node testdata/capture/capture.mjs            # runs terraform itself, writes proposals.json
//     node testdata/capture/capture.mjs --serve    # only serve; prints TF_REATTACH_PROVIDERS
//
// The fake provider serves tfplugin6 in plaintext over a unix socket, the way a provider in
// debug mode does; terraform reaches it through TF_REATTACH_PROVIDERS (no installation).
// Its resource `fake_thing` (schema.json) has computed, optional+computed, v6 nested
// attributes of each nesting and nested blocks of each nesting mode. Planning marks every
// null computed attribute unknown; applying fills unknowns with values derived from their
// path, so that later plans carry computed values in their prior state.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http2";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ExtData, decode, encode } from "@msgpack/msgpack";

const here = dirname(fileURLToPath(import.meta.url));
const gen = await import(join(here, "../../../tfplugin/dist/gen/tfplugin6/tfplugin6_pb.js"));
const schema = JSON.parse(readFileSync(join(here, "schema.json"), "utf8"));

// ---- schema to protobuf -------------------------------------------------------------
const NESTING = { single: 1, list: 2, set: 3, map: 4, group: 5 };
const typeBytes = (t) => new TextEncoder().encode(JSON.stringify(t));
function attrPb(name, a) {
  const out = { name, required: !!a.required, optional: !!a.optional, computed: !!a.computed };
  if (a.nestedType) out.nestedType = { nesting: NESTING[a.nestedType.nesting], attributes: Object.entries(a.nestedType.attributes).map(([n, x]) => attrPb(n, x)) };
  else out.type = typeBytes(a.type);
  return out;
}
function blockPb(b) {
  return {
    attributes: Object.entries(b.attributes ?? {}).map(([n, a]) => attrPb(n, a)),
    blockTypes: Object.entries(b.blockTypes ?? {}).map(([n, nb]) => ({ typeName: n, nesting: NESTING[nb.nesting], block: blockPb(nb.block) })),
  };
}

// ---- value filling ------------------------------------------------------------------
const UNKNOWN = () => new ExtData(0, new Uint8Array([0]));
const isUnknown = (v) => v instanceof ExtData;
const live = (v) => v !== null && v !== undefined && !isUnknown(v);

function eachElement(nesting, v, f) {
  if (!live(v)) return v;
  if (nesting === "single" || nesting === "group") return f(v, "");
  if (nesting === "list" || nesting === "set") return v.map((e, i) => (live(e) ? f(e, `[${i}]`) : e));
  return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, live(e) ? f(e, `[${JSON.stringify(k)}]`) : e]));
}

function planAttrs(attrs, v) {
  const out = { ...v };
  for (const [n, a] of Object.entries(attrs)) {
    if (a.computed && out[n] === null) out[n] = UNKNOWN();
    else if (a.nestedType) out[n] = eachElement(a.nestedType.nesting, out[n], (e) => planAttrs(a.nestedType.attributes, e));
  }
  return out;
}
function planBlock(b, v) {
  const out = planAttrs(b.attributes ?? {}, v);
  for (const [n, nb] of Object.entries(b.blockTypes ?? {})) out[n] = eachElement(nb.nesting, out[n], (e) => planBlock(nb.block, e));
  return out;
}

function generate(a, path) {
  if (a.nestedType) {
    const obj = Object.fromEntries(Object.entries(a.nestedType.attributes).map(([n, x]) => [n, x.computed ? generate(x, `${path}.${n}`) : null]));
    return a.nestedType.nesting === "single" ? obj : null;
  }
  if (a.type === "number") return 42;
  if (a.type === "string") return `gen:${path}`;
  return null;
}
function applyAttrs(attrs, v, path) {
  const out = { ...v };
  for (const [n, a] of Object.entries(attrs)) {
    if (isUnknown(out[n])) out[n] = generate(a, `${path}.${n}`);
    else if (a.nestedType) out[n] = eachElement(a.nestedType.nesting, out[n], (e, s) => applyAttrs(a.nestedType.attributes, e, `${path}.${n}${s}`));
  }
  return out;
}
function applyBlock(b, v, path) {
  const out = applyAttrs(b.attributes ?? {}, v, path);
  for (const [n, nb] of Object.entries(b.blockTypes ?? {})) out[n] = eachElement(nb.nesting, out[n], (e, s) => applyBlock(nb.block, e, `${path}.${n}${s}`));
  return out;
}

// ---- the server ---------------------------------------------------------------------
const hex = (u8) => Buffer.from(u8 ?? []).toString("hex");
const records = [];
let phase = "serve";
const block = schema.block;
const resourceSchema = { version: BigInt(schema.version), block: blockPb(block) };

const impl = {
  getMetadata: () => ({ resources: [{ typeName: "fake_thing" }] }),
  getProviderSchema: () => ({
    provider: { version: 0n, block: {} },
    resourceSchemas: { fake_thing: resourceSchema },
    dataSourceSchemas: {},
    serverCapabilities: { planDestroy: true, getProviderSchemaOptional: false },
  }),
  validateProviderConfig: () => ({}),
  configureProvider: () => ({}),
  validateResourceConfig: () => ({}),
  validateDataResourceConfig: () => ({}),
  upgradeResourceState: (req) => ({ upgradedState: { json: req.rawState?.json ?? new Uint8Array() } }),
  readResource: (req) => ({ newState: req.currentState, private: req.private }),
  planResourceChange: (req) => {
    records.push({
      phase,
      typeName: req.typeName,
      prior: hex(req.priorState?.msgpack),
      config: hex(req.config?.msgpack),
      proposed: hex(req.proposedNewState?.msgpack),
    });
    const proposed = decode(req.proposedNewState.msgpack);
    if (proposed === null) return { plannedState: { msgpack: req.proposedNewState.msgpack } };
    const planned = planBlock(block, proposed);
    if (req.priorState && decode(req.priorState.msgpack) === null) planned.id = UNKNOWN();
    return { plannedState: { msgpack: encode(planned) }, plannedPrivate: new TextEncoder().encode("{}") };
  },
  applyResourceChange: (req) => {
    const planned = decode(req.plannedState.msgpack);
    if (planned === null) return { newState: { msgpack: req.plannedState.msgpack } };
    const filled = applyBlock(block, planned, "");
    if (isUnknown(planned.id)) filled.id = `thing-${planned.name}`;
    return { newState: { msgpack: encode(filled) }, private: req.plannedPrivate };
  },
  importResourceState: () => ({ importedResources: [] }),
  readDataSource: (req) => ({ state: req.config }),
  stopProvider: () => ({}),
};

const dir = mkdtempSync(join(tmpdir(), "magma-capture-"));
const socket = join(dir, "provider.sock");
const server = createServer(connectNodeAdapter({ routes: (r) => r.service(gen.Provider, impl), grpc: true, connect: false, grpcWeb: false }));
await new Promise((resolve) => server.listen(socket, resolve));
const reattach = JSON.stringify({
  "example.com/test/fake": { Protocol: "grpc", ProtocolVersion: 6, Pid: process.pid, Test: true, Addr: { Network: "unix", String: socket } },
});
console.log(`TF_REATTACH_PROVIDERS='${reattach}'`);

if (process.argv.includes("--serve")) {
  process.on("SIGINT", () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
} else {
  try {
    await runPhases();
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPhases() {
  const work = join(dir, "work");
  writeFileSync(join(dir, "cli.tfrc"), 'provider_installation {\n  filesystem_mirror {\n    path = "/opt/tf-plugins"\n  }\n}\n');
  const env = { ...process.env, TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc"), TF_REATTACH_PROVIDERS: reattach, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  spawnSync("mkdir", ["-p", work]);
  const phases = JSON.parse(readFileSync(join(here, "phases.json"), "utf8"));
  for (const p of phases) {
    phase = p.name;
    writeFileSync(join(work, "main.tf"), p.hcl.join("\n") + "\n");
    const args = p.destroy ? ["destroy", "-auto-approve", "-no-color"] : ["apply", "-auto-approve", "-no-color"];
    const r = await run("terraform", args, { cwd: work, env });
    console.error(`--- ${p.name}: terraform ${args.join(" ")} -> ${r.status}`);
    if (r.status !== 0) {
      console.error(r.stdout, r.stderr);
      throw new Error(`phase ${p.name} failed`);
    }
  }
  // Keep one record per distinct request (apply re-plans with the same values).
  const seen = new Set();
  const unique = records.filter((x) => {
    const k = `${x.typeName}|${x.prior}|${x.config}|${x.proposed}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const out = { terraform: spawnSync("terraform", ["version"], { encoding: "utf8" }).stdout.split("\n")[0], protocol: 6, proposals: unique };
  writeFileSync(join(here, "proposals.json"), JSON.stringify(out, null, 1) + "\n");
  console.error(`wrote ${unique.length} proposals (${records.length} requests)`);
}

/** Runs a command without blocking the event loop (the server must keep answering). */
function run(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
