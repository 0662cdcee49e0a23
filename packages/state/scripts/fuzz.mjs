#!/usr/bin/env node
// Fuzzes the state reader: readStateFile over bytes (state format v4 generated from a model
// of Terraform's state — outputs, resources, instances, check results — and rendered compact or
// as Go's MarshalIndent prints it, then mutated: wrong types, `__proto__`/`constructor`/
// `prototype` keys everywhere, duplicate keys and resources, invalid addresses, odd numbers and
// unicode, very long strings, deep nesting, other format versions, truncated and bit-flipped
// bytes, invalid UTF-8), what a read state is used for (decodeOutput, decodeSensitivePaths,
// writeStateFile and reading that back, which must reach a fixed point), the address parsers, and —
// for one case in eight — the local backend's read path (loadState) over a directory holding
// the fuzzed state file and the journal of an interrupted write (complete, torn, stale, or
// garbage), including its recovery.
//
// The only allowed outcome is a StateError: no other exception, no case over the time limit, no
// change to Object.prototype and the other built-ins, no object in a result with a made-up
// prototype.
//
//   node scripts/fuzz.mjs [cases=100000] [seed]        (after the build: uses dist/)
//   env: MAGMA_FUZZ_RUNS, MAGMA_FUZZ_SEED, MAGMA_FUZZ_CASE_MS (default 30000)
//
// src/fuzz.test.ts runs MAGMA_FUZZ_RUNS (default 1,000) cases of the same property on the sources.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { checkShapes, cpuMs, emptyStats, mutateBytes, pollutionGuard, runCase } from "@magma/test-support/fuzz-support";

const HOSTILE = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf", "polluted"];
const strArb = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 10 }) },
  { weight: 3, arbitrary: fc.constantFrom("", "\u0000", "\u202e", "\ud800", "\udfff", "𝕏", "e\u0301", "\ufeff", "<&>", "\u2028", "\\", '"', "\n", "a.b", "x[0]") },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((n) => "s".repeat(n)) },
);
const numText = fc.oneof(
  fc.constantFrom("0", "-0", "1", "4", "3", "5", "1.5", "1e308", "1e309", "-1", "9007199254740991", "9007199254740992", "9007199254740993", "123456789012345678901234567890", "1e-400", "4.0", "4e0", "0.0"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

/** A JSON tree (rendered by hand so that keys such as `__proto__` stay as written, duplicates too). */
const S = (v) => ({ t: "str", v });
const R = (v) => ({ t: "raw", v });
const A = (v) => ({ t: "arr", v });
const O = (v) => ({ t: "obj", v });
const keyArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("a", "id", "name", "tags", "b") }, { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 1, arbitrary: strArb });
const jsonArb = fc.letrec((tie) => ({
  j: fc.oneof(
    { maxDepth: 3, depthIdentifier: "j" },
    numText.map(R),
    strArb.map(S),
    fc.constantFrom(R("true"), R("false"), R("null")),
    fc.array(tie("j"), { maxLength: 4 }).map(A),
    fc.array(fc.tuple(keyArb, tie("j")), { maxLength: 4 }).map(O),
  ),
})).j;
const deepArb = fc.tuple(fc.oneof(fc.integer({ min: 100, max: 1500 }), fc.integer({ min: 9990, max: 12_000 })), fc.constantFrom("[", '{"a":', '{"__proto__":')).map(([n, o]) => R(`${o.repeat(n)}1${(o === "[" ? "]" : "}").repeat(n)}`));

/** A cty type JSON and a value of it (sometimes not of it). */
const typedValueArb = fc.oneof(
  fc.constant([R('"string"'), S("x")]),
  fc.constant([R('"string"'), S("__proto__")]),
  fc.constant([R('["object",{"a":"number"}]'), O([["a", R("1")]])]),
  fc.constant([R('"number"'), R("1e400")]),
  fc.constant([R('["map","string"]'), O([["__proto__", S("p")], ["constructor", S("c")]])]),
  fc.constant([R('["object",{"__proto__":"string","constructor":"number"}]'), O([["__proto__", S("p")], ["constructor", R("1")]])]),
  fc.constant([R('["list",["object",{"a":"bool"}]]'), A([O([["a", R("true")]])])]),
  fc.constant([R('"dynamic"'), O([["value", S("x")], ["type", S("string")]])]),
  fc.constant([R('["set","number"]'), A([R("1"), R("1")])]),
  fc.constant([R('["tuple",[]]'), A([])]),
  fc.tuple(fc.constantFrom('"string"', '"number"', '"bool"', '["list","string"]', '["map","number"]', '"dynamic"', '["object",{}]', '"any"', '["__proto__"]', "{}", "[]", "null", '["list"]'), jsonArb).map(([t, v]) => [R(t), v]),
  fc.integer({ min: 100, max: 5000 }).map((n) => [R(`${'["list",'.repeat(n)}"string"${"]".repeat(n)}`), A([])]),
);

const pathStepArb = fc.oneof(
  keyArb.map((k) => O([["type", S("get_attr")], ["value", S(k)]])),
  numText.map((n) => O([["type", S("index")], ["value", O([["value", R(n)], ["type", S("number")]])]])),
  keyArb.map((k) => O([["type", S("index")], ["value", O([["value", S(k)], ["type", S("string")]])]])),
  jsonArb,
);
const identArb = fc.oneof(fc.constantFrom("a", "web", "this", "x_y", "aws_instance", "é", "a-b", "_"), fc.constantFrom(...HOSTILE), strArb);
const moduleArb = fc.oneof(
  fc.constant(""),
  identArb.map((n) => `module.${n}`),
  fc.tuple(identArb, fc.oneof(fc.nat().map(String), strArb.map((s) => JSON.stringify(s)))).map(([n, k]) => `module.${n}[${k}]`),
  fc.constantFrom('module.a["__proto__"].module.b[0]', "module.", "module.a.b", "module.a[", 'module.a["x"]["y"]', "module.a[-1]", "module.a[1.5]"),
  strArb,
);
const providerArb = fc.oneof(
  fc.constantFrom('provider["registry.terraform.io/hashicorp/aws"]', 'provider["registry.terraform.io/hashicorp/aws"].west', "provider.aws", "provider.aws.west", 'provider["__proto__"]', 'provider["a/b/c/d"]', 'provider["registry.terraform.io/-/aws"]', "provider[", 'provider["x"]', ""),
  fc.tuple(fc.constantFrom("registry.terraform.io", "example.com", "__proto__", "é.com", "xn--"), identArb, identArb).map(([h, ns, t]) => `provider[${JSON.stringify(`${h}/${ns}/${t}`)}]`),
  strArb,
);
const dependencyArb = fc.oneof(fc.constantFrom("aws_instance.a", "module.m.aws_instance.a", 'module.m["k"].data.x_y.z', "data.a.b", "a", "a.b.c.d", "module.m", "aws_instance.a[0]", "__proto__.constructor"), strArb);
const base64Arb = fc.oneof(fc.base64String({ maxLength: 40 }), strArb, fc.constantFrom("", "AA==", "A", "====", "eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ=="));

const field = (name, arb) => fc.option(arb.map((v) => [name, v]), { freq: 8, nil: undefined });
const objOf = (...fields) =>
  fc.tuple(fc.tuple(...fields), fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(keyArb, jsonArb), { maxLength: 1 }) }), fc.boolean()).map(([fs, extra, shuffle]) => {
    const props = [...fs.filter((f) => f !== undefined), ...extra];
    if (shuffle) props.reverse();
    return O(props);
  });
/** Any field may get a value of the wrong type. */
const orWrong = (arb) => fc.oneof({ weight: 30, arbitrary: arb }, { weight: 1, arbitrary: jsonArb });

/** Mostly a valid address, sometimes anything. */
const mostly = (valid, any) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: any });
const goodModule = mostly(fc.constantFrom("", "module.a", 'module.a["__proto__"]', "module.constructor[0]", 'module.a["k"].module.b'), moduleArb);
const goodProvider = mostly(fc.constantFrom('provider["registry.terraform.io/hashicorp/aws"]', 'provider["registry.terraform.io/hashicorp/aws"].west', 'provider["example.com/constructor/__proto__"]', "provider.aws"), providerArb);
const goodDependency = mostly(fc.constantFrom("aws_instance.a", "module.m.aws_instance.a", "data.a.b", "x_y.__proto__", "constructor.prototype"), dependencyArb);
const goodIdent = mostly(fc.constantFrom("a", "web", "x_y", "__proto__", "constructor", "prototype"), identArb);

const instanceArb = objOf(
  field("index_key", orWrong(fc.oneof(fc.nat({ max: 5 }).map((n) => R(String(n))), numText.map(R), keyArb.map(S), fc.constant(R("null"))))),
  field("status", orWrong(fc.constantFrom(S("tainted"), S(""), S("deposed"), R("null")))),
  field("deposed", orWrong(mostly(fc.constantFrom(S("00000001"), S("abcdef12"), S("")), strArb.map(S)))),
  field("schema_version", orWrong(mostly(fc.nat({ max: 5 }).map((n) => R(String(n))), numText.map(R)))),
  field("attributes", fc.oneof(orWrong(fc.array(fc.tuple(keyArb, jsonArb), { maxLength: 5 }).map(O)), deepArb)),
  field("attributes_flat", orWrong(fc.array(fc.tuple(keyArb, strArb.map(S)), { maxLength: 3 }).map(O))),
  field("sensitive_attributes", orWrong(fc.array(fc.array(mostly(pathStepArb.filter((x) => x.t === "obj"), pathStepArb), { maxLength: 3 }).map(A), { maxLength: 3 }).map(A))),
  field("private", orWrong(mostly(fc.base64String({ maxLength: 40 }), base64Arb).map(S))),
  field("dependencies", orWrong(fc.array(goodDependency.map(S), { maxLength: 3 }).map(A))),
  field("create_before_destroy", orWrong(fc.constantFrom(R("true"), R("false")))),
);
const resourceArb = objOf(
  field("module", orWrong(goodModule.map(S))),
  field("mode", orWrong(mostly(fc.constantFrom(S("managed"), S("data")), fc.constantFrom(S("ephemeral"), S(""))))),
  field("type", orWrong(goodIdent.map(S))),
  field("name", orWrong(goodIdent.map(S))),
  field("provider", orWrong(goodProvider.map(S))),
  field("instances", orWrong(fc.array(instanceArb, { maxLength: 3 }).map(A))),
);
const outputArb = typedValueArb.chain(([t, v]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(R("true"), R("false")).map((sens) => O([["value", v], ["type", t], ["sensitive", sens]])) },
    { weight: 1, arbitrary: objOf(field("value", fc.constant(v)), field("type", fc.constant(t)), field("sensitive", orWrong(fc.constantFrom(R("true"), R("false"))))) },
  ),
);
const checkArb = objOf(
  field("object_kind", orWrong(mostly(fc.constantFrom(S("resource"), S("output"), S("check")), fc.constantFrom(S("var"), S(""))))),
  field("config_addr", orWrong(strArb.map(S))),
  field("status", orWrong(fc.constantFrom(S("pass"), S("fail"), S("error"), S("unknown"), S("")))),
  field(
    "objects",
    orWrong(
      fc
        .array(objOf(field("object_addr", strArb.map(S)), field("status", fc.constantFrom(S("pass"), S("fail"))), field("failure_messages", fc.array(strArb.map(S), { maxLength: 2 }).map(A))), { maxLength: 2 })
        .map(A),
    ),
  ),
);
const stateArb = fc
  .tuple(
    fc.oneof({ weight: 12, arbitrary: fc.constant(R("4")) }, { weight: 1, arbitrary: fc.constantFrom(R("3"), R("0"), R("5"), R("1"), R("-4"), R("4.0"), R("4e0"), R("1e999"), S("4"), R("null")) }),
    objOf(
      field("terraform_version", orWrong(mostly(fc.constantFrom(S("1.11.4"), S("v1.0.0-beta+x"), S("1.2.3.4.5"), S("")), strArb.map(S)))),
      field("serial", orWrong(mostly(fc.nat().map((n) => R(String(n))), numText.map(R)))),
      field("lineage", orWrong(strArb.map(S))),
      field("outputs", orWrong(fc.array(fc.tuple(keyArb, outputArb), { maxLength: 3 }).map(O))),
      field("resources", orWrong(fc.array(resourceArb, { maxLength: 4 }).chain((rs) => fc.nat({ max: 3 }).map((d) => A(d === 0 && rs.length > 0 ? [...rs, rs[0]] : rs))))),
      field("check_results", orWrong(fc.array(checkArb, { maxLength: 2 }).map(A))),
    ),
    fc.boolean(),
  )
  .map(([version, body, versionFirst]) => O(versionFirst ? [["version", version], ...body.v] : [...body.v, ["version", version]]));

/** Renders a JSON tree: compact, or indented as Go's MarshalIndent does (HTML characters escaped). */
function render(j, pretty, depth = 0) {
  const goEscape = (s) => JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  switch (j.t) {
    case "raw":
      return j.v;
    case "str":
      return pretty ? goEscape(j.v) : JSON.stringify(j.v);
    case "arr":
      if (j.v.length === 0) return "[]";
      if (!pretty) return `[${j.v.map((x) => render(x, false)).join(",")}]`;
      return `[\n${j.v.map((x) => `${"  ".repeat(depth + 1)}${render(x, true, depth + 1)}`).join(",\n")}\n${"  ".repeat(depth)}]`;
    case "obj":
      if (j.v.length === 0) return "{}";
      if (!pretty) return `{${j.v.map(([k, x]) => `${JSON.stringify(k)}:${render(x, false)}`).join(",")}}`;
      return `{\n${j.v.map(([k, x]) => `${"  ".repeat(depth + 1)}${goEscape(k)}: ${render(x, true, depth + 1)}`).join(",\n")}\n${"  ".repeat(depth)}}`;
    default:
      throw new Error(`bad json node ${j.t}`);
  }
}

const editsArb = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 4 })), { maxLength: 4 });
/** A state file's bytes: rendered, then (for most) mutated. */
const bytesArb = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.tuple(stateArb, fc.boolean(), fc.nat({ max: 9 }), editsArb).map(([s, pretty, m, edits]) => {
      const text = `${render(s, pretty)}${pretty ? "\n" : ""}`;
      const bytes = new TextEncoder().encode(text);
      return m < 6 ? bytes : mutateBytes(bytes, edits);
    }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "\ufeff{}", "tfstate", "{", "null", "[]", '{"version":4}', '{"version":4,"version":3}', '{"version":"4"}', '{"__proto__":{"version":4}}', '{"version":4,"resources":{"__proto__":[]}}').map((s) => new TextEncoder().encode(s)) },
);

/** A state directory for the local backend: the state file and maybe the journal of an interrupted write. */
const dirArb = fc.record({
  state: bytesArb,
  next: bytesArb,
  journal: fc.constantFrom("none", "complete", "complete-torn", "done", "stale", "garbage", "truncated", "flipped", "wrong-length"),
  backup: fc.boolean(),
  cut: fc.nat(),
});

/** One fuzz case. */
export const caseArb = fc.tuple(bytesArb, fc.array(fc.oneof(moduleArb, dependencyArb, providerArb, strArb), { maxLength: 3 }), fc.option(dirArb, { freq: 8, nil: undefined })).map(([bytes, addresses, dir]) => ({ bytes, addresses, dir }));

// ----- the property --------------------------------------------------------------------------

function sha(b) {
  return createHash("sha256").update(b).digest("hex");
}
/** The journal format of the local backend (src/internal/state-journal.ts), written independently. */
function journal(next, previous) {
  return Buffer.concat([Buffer.from(next), Buffer.from(`MAGMAJ1 ${String(next.length).padStart(16, "0")} ${sha(next)} ${sha(previous)}\n`, "latin1")]);
}

let tmpRoot;
function tmpBase() {
  tmpRoot ??= mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "magma-state-fuzz-"));
  return tmpRoot;
}

/** Removes the fuzz run's temporary directory. */
export function cleanup() {
  if (tmpRoot !== undefined) rmSync(tmpRoot, { recursive: true, force: true });
  tmpRoot = undefined;
}

let counter = 0;

/** Everything done with a state that was read: the same checks for the reader and the backend. */
function useState(lib, file, where) {
  if (file === undefined) return;
  checkShapes(file, where);
  for (const [name, o] of file.outputs) {
    if (typeof name !== "string") throw new Error(`${where}: an output name that is not a string`);
    checkShapes(lib.decodeOutput(o), `${where}: output ${name}`);
  }
  for (const rs of file.resources) {
    lib.formatResource(rs);
    for (const o of rs.instances) {
      lib.formatResourceInstance({ ...rs, key: o.indexKey });
      try {
        lib.decodeSensitivePaths(o.sensitiveAttributesJson);
      } catch (e) {
        if (!lib.isStateError(e)) throw e;
      }
    }
  }
  // A state that reads writes back, and what it writes reads back and writes the same bytes
  // from then on. (Not always after the first write, as in Terraform: an instance with an empty
  // "attributes_flat" and no "attributes" is written with neither — Go's omitempty — and read
  // back as "attributes": {}.)
  const written = lib.formatStateFile(lib.readStateFile(lib.writeStateFile(file), { source: "the written state" }));
  const rewritten = lib.formatStateFile(lib.readStateFile(written, { source: "the rewritten state" }));
  if (rewritten !== written) throw new Error(`${where}: the state read back from its own output writes differently`);
}

/**
 * Runs one case; throws on anything but a StateError. Returns "errors" when the state was
 * refused, "ok" otherwise. `lib` is @magma/state (src or dist).
 */
export async function fuzzState(lib, c) {
  let refused = false;
  const typed = (f) => {
    try {
      return f();
    } catch (e) {
      if (!lib.isStateError(e)) throw e;
      if (typeof e.code !== "string" || !e.message.startsWith(`[${e.code}] `)) throw new Error(`a malformed StateError: ${e.message}`);
      refused = true;
      return undefined;
    }
  };
  const file = typed(() => lib.readStateFile(c.bytes));
  const read = file !== undefined;
  if (file !== undefined) useState(lib, file, "the read state");
  for (const a of c.addresses) {
    for (const parse of [lib.parseResourceInstance, lib.parseResource, lib.parseModuleInstance, lib.parseProviderConfig, lib.parseLegacyProviderConfig, lib.parseProviderSource]) {
      const r = typed(() => parse(a));
      if (r !== undefined) checkShapes(r, "a parsed address");
    }
  }
  if (c.dir !== undefined) {
    const d = c.dir;
    const dir = join(tmpBase(), `s${counter++}`);
    mkdirSync(dir);
    try {
      const statePath = join(dir, "terraform.tfstate");
      let state = d.state;
      const next = d.next;
      if (d.journal === "complete-torn") state = next.subarray(0, d.cut % (next.length + 1));
      if (d.journal === "done") state = next;
      writeFileSync(statePath, state);
      const jpath = `${statePath}.magma-new`;
      const full = journal(next, d.journal === "stale" ? new Uint8Array([1]) : state);
      if (d.journal === "complete" || d.journal === "complete-torn" || d.journal === "done" || d.journal === "stale") writeFileSync(jpath, full);
      else if (d.journal === "garbage") writeFileSync(jpath, next);
      else if (d.journal === "truncated") writeFileSync(jpath, full.subarray(0, d.cut % full.length));
      else if (d.journal === "flipped") writeFileSync(jpath, mutateBytes(full, [[d.cut, d.cut & 255, 1]]));
      else if (d.journal === "wrong-length") writeFileSync(jpath, Buffer.concat([Buffer.from([0x20]), full]));
      if (d.backup) writeFileSync(`${statePath}.backup`, d.next);
      const jpathBytes = existsSync(jpath) ? readFileSync(jpath) : undefined;
      const messages = [];
      const backend = lib.createLocalBackend({ dir, onRecovery: (m) => messages.push(m) });
      const store = backend.store("default");
      let loaded;
      try {
        loaded = await store.read().then(() => lib.loadState(store));
      } catch (e) {
        if (!lib.isStateError(e)) throw e;
        refused = true;
      }
      useState(lib, loaded, "the loaded state");
      // After a read, the state file holds the committed state (see expectedState).
      const committed = expectedState(state, jpathBytes);
      const onDisk = readFileSync(statePath);
      if (!Buffer.from(onDisk).equals(Buffer.from(committed))) throw new Error(`after recovery the state file holds ${onDisk.length} bytes, not the ${committed.length} bytes of the committed state (journal ${d.journal})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  void refused;
  return read ? "ok" : "errors";
}

/**
 * The state a read must leave in the state file, by the backend's documented rules: a journal
 * counts only when complete (trailer, length and checksum); then the state file is rolled
 * forward to it when it holds the state the journal replaced, or anything torn (not one
 * complete JSON value, or a prefix of the new state); a complete other state supersedes it.
 */
function expectedState(state, journalBytes) {
  if (journalBytes === undefined) return state;
  const tl = 8 + 16 + 1 + 64 + 1 + 64 + 1;
  if (journalBytes.length < tl) return state;
  const m = /^MAGMAJ1 (\d{16}) ([0-9a-f]{64}) ([0-9a-f]{64})\n$/.exec(Buffer.from(journalBytes.subarray(journalBytes.length - tl)).toString("latin1"));
  if (m === null || Number(m[1]) !== journalBytes.length - tl) return state;
  const next = journalBytes.subarray(0, journalBytes.length - tl);
  if (sha(next) !== m[2]) return state;
  if (sha(state) === sha(next) || sha(state) === m[3]) return next;
  const prefix = state.length < next.length && Buffer.from(next.subarray(0, state.length)).equals(Buffer.from(state));
  if (!prefix && state.length > 0) {
    try {
      JSON.parse(Buffer.from(state).toString("utf8"));
      return state;
    } catch {
      // torn
    }
  }
  return next;
}

/** The fast-check property over {@link caseArb}; `onCase` is called after each case. */
export function stateProperty(lib, limits, stats, guard, onCase = () => {}) {
  return fc.asyncProperty(caseArb, async (c) => {
    const input = c.bytes.length > 2000 ? Buffer.from(c.bytes.subarray(0, 2000)).toString("latin1") : Buffer.from(c.bytes).toString("latin1");
    let outcome;
    let error;
    const start = cpuMs();
    try {
      outcome = await fuzzState(lib, c);
    } catch (e) {
      error = e;
    }
    // runCase's bookkeeping over the finished async case.
    runCase(stats, { maxCaseMs: Infinity }, guard, input, () => {
      if (error !== undefined) throw error;
      return outcome;
    });
    const ms = cpuMs() - start;
    if (ms > limits.maxCaseMs) throw new Error(`fuzz input ${JSON.stringify(input.slice(0, 300))} took ${ms.toFixed(0)} ms of CPU (limit ${limits.maxCaseMs} ms)`);
    if (ms > stats.slowestMs) stats.slowestMs = ms;
    onCase();
    // Let the event loop turn now and then: the cases resolve through microtasks only, which
    // kept the SIGINT/SIGTERM handlers of a script run from ever running.
    if ((stats.runs & 63) === 0) await new Promise((resolve) => setImmediate(resolve));
  });
}

async function main() {
  const runs = Number(process.argv[2] ?? process.env.MAGMA_FUZZ_RUNS ?? 100_000);
  const seed = Number(process.argv[3] ?? process.env.MAGMA_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const maxCaseMs = Number(process.env.MAGMA_FUZZ_CASE_MS ?? 30000);
  const lib = await import("../dist/index.js");
  const stats = emptyStats();
  const guard = pollutionGuard();
  console.log(`state fuzz: ${runs} cases, seed ${seed}, case limit ${maxCaseMs} ms`);
  const started = performance.now();
  // Stopped early (SIGINT/SIGTERM): say what ran.
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.once(sig, () => {
      console.log(`stopped by ${sig} after ${stats.runs} cases in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed}): no failure so far; slowest ${stats.slowestMs.toFixed(0)} ms; ${stats.ok} read`);
      cleanup();
      process.exit(130);
    });
  }
  let failed = false;
  try {
    const details = await fc.check(
      stateProperty(lib, { maxCaseMs }, stats, guard, () => {
        if (stats.runs % 1000 === 0) console.log(`  ${stats.runs} cases, ${((performance.now() - started) / 1000).toFixed(0)} s, ${stats.ok} read, slowest ${stats.slowestMs.toFixed(0)} ms`);
      }),
      { numRuns: runs, seed, endOnFailure: process.env.MAGMA_FUZZ_SHRINK !== "1" },
    );
    if (details.failed) {
      failed = true;
      const message = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      console.error(`FAILED (seed ${seed}, path ${details.counterexamplePath}, after ${details.numShrinks} shrinks):\n${message.slice(0, 4000)}`);
    }
  } finally {
    cleanup();
  }
  stats.peakRssBytes = Math.max(stats.peakRssBytes, process.memoryUsage.rss());
  const secs = (performance.now() - started) / 1000;
  console.log(
    `state: ${stats.runs} cases in ${secs.toFixed(1)} s (seed ${seed}): ${stats.withErrors} refused with a StateError, ${stats.ok} read; other exceptions ${failed ? "YES" : 0}; slowest ${stats.slowestMs.toFixed(0)} ms; peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB`,
  );
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
