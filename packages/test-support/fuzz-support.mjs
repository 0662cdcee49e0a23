// The fuzz harness shared by the fuzz scripts of @magma/config and @magma/state
// (`@magma/test-support/fuzz-support`): prototype-pollution snapshots, the shape check of
// results, per-case statistics, text and byte mutations, and the watchdog runner that turns a
// hang into a failure. Plain JavaScript, so that the scripts run without a build.

/** The built-in objects whose own properties must never change during a fuzz case. */
const GUARDED = [
  Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype,
  Symbol.prototype, BigInt.prototype, Map.prototype, Set.prototype, WeakMap.prototype, RegExp.prototype, Error.prototype,
  Promise.prototype, Date.prototype, Uint8Array.prototype, Object, Array, JSON, Math, Reflect, globalThis,
];

/**
 * A snapshot of the guarded built-ins (prototype, extensibility, every own property's
 * descriptor); `check()` throws naming the first difference.
 */
export function pollutionGuard() {
  const take = () =>
    GUARDED.map((o) => ({
      o,
      proto: Object.getPrototypeOf(o),
      extensible: Object.isExtensible(o),
      props: new Map(Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)])),
    }));
  const before = take();
  const name = (o) => (o === globalThis ? "globalThis" : typeof o === "function" ? o.name : `${o.constructor?.name ?? "?"}.prototype`);
  return {
    check() {
      for (const b of before) {
        const o = b.o;
        if (Object.getPrototypeOf(o) !== b.proto) throw new Error(`prototype pollution: the prototype of ${name(o)} changed`);
        if (Object.isExtensible(o) !== b.extensible) throw new Error(`prototype pollution: ${name(o)} changed extensibility`);
        const keys = Reflect.ownKeys(o);
        for (const k of keys) {
          const was = b.props.get(k);
          const now = Object.getOwnPropertyDescriptor(o, k);
          if (was === undefined) {
            // globalThis gains harmless own properties at run time (e.g. from jest); built-in prototypes never do.
            if (o === globalThis && typeof k === "string" && !["polluted", "__proto__", "constructor", "prototype"].includes(k)) continue;
            throw new Error(`prototype pollution: ${name(o)} gained the property ${String(k)}`);
          }
          if (!Object.is(now.value, was.value) || now.get !== was.get || now.set !== was.set || now.writable !== was.writable) {
            throw new Error(`prototype pollution: ${name(o)}.${String(k)} changed`);
          }
        }
        if (o !== globalThis && keys.length !== b.props.size) throw new Error(`prototype pollution: ${name(o)} lost a property`);
      }
      // The classic probes.
      const probe = {};
      for (const k of ["polluted", "isAdmin", "x", "a", "__proto__x"]) if (k in probe) throw new Error(`prototype pollution: ({}).${k} is defined`);
    },
  };
}

/**
 * Walks every object reachable from `root` (own properties, Map and Set entries, array items;
 * at most `limit` objects) and throws when an object's prototype is not a real one: an object
 * whose prototype is a plain data object came from a `__proto__` key assigned as a property
 * (a key silently lost, or an object inheriting input). A real prototype is null or has its own
 * `constructor` function pointing back at it.
 */
export function checkShapes(root, where, limit = 200_000) {
  const seen = new Set();
  const stack = [root];
  while (stack.length > 0 && seen.size < limit) {
    const v = stack.pop();
    if (v === null || (typeof v !== "object" && typeof v !== "function") || seen.has(v)) continue;
    seen.add(v);
    if (typeof v === "function") continue;
    const proto = Object.getPrototypeOf(v);
    if (proto !== null) {
      const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
      if (typeof ctor !== "function" || ctor.prototype !== proto) {
        throw new Error(`${where}: an object of the result has the prototype ${safeJson(proto)} (a "__proto__" key assigned as a property?)`);
      }
    }
    if (ArrayBuffer.isView(v)) continue;
    if (v instanceof Map) {
      for (const [k, x] of v) {
        stack.push(k);
        stack.push(x);
      }
    } else if (v instanceof Set) {
      for (const x of v) stack.push(x);
    }
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d !== undefined && "value" in d) stack.push(d.value);
    }
  }
}

function safeJson(x) {
  try {
    return JSON.stringify(x).slice(0, 120);
  } catch {
    return String(x);
  }
}

/**
 * The CPU time this process has used so far, in milliseconds (user + system, all threads).
 * A case's time limit is measured in CPU time, not wall time: on a shared, loaded machine a
 * legitimate costly case (7 s of CPU) took 186 s of wall time, while a hang or a quadratic
 * blow-up burns CPU wherever it runs.
 */
export function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** A fresh statistics record. */
export function emptyStats() {
  return { runs: 0, ok: 0, withErrors: 0, typedErrors: 0, slowestMs: 0, slowest: "", peakRssBytes: 0 };
}

/** Describes an input for a failure message (long inputs cut). */
export function describe(x) {
  const s = typeof x === "string" ? x : safeJson(x) ?? String(x);
  return JSON.stringify(s.length > 400 ? `${s.slice(0, 400)}… (${s.length} characters)` : s);
}

/**
 * Runs one case: `run()` must return normally (or throw something `typed` accepts); anything
 * else, a pollution of the built-ins, or a case slower than `maxCaseMs` fails with the input.
 */
export function runCase(stats, limits, guard, input, run, typed = () => false) {
  const start = cpuMs();
  try {
    const outcome = run();
    if (outcome === "errors") stats.withErrors++;
    else stats.ok++;
  } catch (e) {
    if (!typed(e)) {
      const err = new Error(`fuzz input ${describe(input)} threw ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`);
      throw err;
    }
    stats.typedErrors++;
  } finally {
    stats.runs++;
    if ((stats.runs & 255) === 0) stats.peakRssBytes = Math.max(stats.peakRssBytes, process.memoryUsage.rss());
  }
  try {
    guard.check();
  } catch (e) {
    throw new Error(`fuzz input ${describe(input)}: ${e.message}`);
  }
  const ms = cpuMs() - start;
  if (ms > stats.slowestMs) {
    stats.slowestMs = ms;
    stats.slowest = describe(input).slice(0, 100);
  }
  if (ms > limits.maxCaseMs) throw new Error(`fuzz input ${describe(input)} took ${ms.toFixed(0)} ms of CPU (limit ${limits.maxCaseMs} ms)`);
}

/** Mutations of a text as bytes: truncation, bit flips, byte insertion, a span duplicated or deleted. */
export function mutateText(text, edits) {
  let b = Buffer.from(text, "utf8");
  for (const [pos, byte, kind] of edits) {
    const i = b.length === 0 ? 0 : pos % b.length;
    if (kind === 0) b = b.subarray(0, i);
    else if (kind === 1) {
      b = Buffer.from(b);
      if (b.length > 0) b[i] ^= 1 << (byte & 7);
    } else if (kind === 2) b = Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)]);
    else if (kind === 3) {
      const len = 1 + (byte % 64);
      b = Buffer.concat([b.subarray(0, i + len), b.subarray(i, i + len), b.subarray(i + len)]);
    } else b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1 + (byte % 16))]);
  }
  return b.toString("utf8");
}

/** {@link mutateText} on bytes, without decoding: invalid UTF-8 stays invalid. */
export function mutateBytes(bytes, edits) {
  let b = Buffer.from(bytes);
  for (const [pos, byte, kind] of edits) {
    const i = b.length === 0 ? 0 : pos % b.length;
    if (kind === 0) b = b.subarray(0, i);
    else if (kind === 1) {
      b = Buffer.from(b);
      if (b.length > 0) b[i] ^= 1 << (byte & 7);
    } else if (kind === 2) b = Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)]);
    else if (kind === 3) {
      const len = 1 + (byte % 64);
      b = Buffer.concat([b.subarray(0, i + len), b.subarray(i, i + len), b.subarray(i + len)]);
    } else b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1 + (byte % 16))]);
  }
  return new Uint8Array(b);
}
