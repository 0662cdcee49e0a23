#!/usr/bin/env node
// One cold start in a fresh process, for plugin-bench.mjs. Usage:
//   node cold-child.mjs dial <cacheDir|off>   nothing -> configured AWS LiveProvider (public API)
//   node cold-child.mjs schema                launch + handshake, then GetSchema through ProviderConn,
//                                             timing the host CPU that receives, decodes and makes
//                                             the schema and the implied types in use usable
// Prints one JSON line on stdout.
import { readFileSync } from "node:fs";

const AWS = "/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";
const awsConfig = JSON.parse(process.env.MAGMA_BENCH_AWS_CONFIG ?? "{}");
const cpuMs = (c) => (c.user + c.system) / 1000;
const hwmMiB = (pid) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m === null ? NaN : Number(m[1]) / 1024;
};

const mode = process.argv[2];
const importStart = performance.now();
const plugin = await import("../dist/index.js");
const importMs = performance.now() - importStart;

if (mode === "dial") {
  const cacheDir = process.argv[3];
  const events = [];
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const live = await plugin.dialConfiguredProvider({
    binary: AWS,
    config: awsConfig,
    schemaCacheDir: cacheDir === "off" ? false : cacheDir,
    logger: { log: (e) => e.message.startsWith("schema cache ") && events.push(e.message.slice(13)) },
  });
  const dialMs = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(c0));
  const sinceProcessStart = performance.now(); // performance.now() counts from process start
  // Let a pending cache write finish before measuring memory and closing.
  await new Promise((r) => setTimeout(r, 200));
  const out = { dialMs, cpuMs: cpu, importMs, processMs: sinceProcessStart, hostHwmMiB: hwmMiB("self"), providerHwmMiB: hwmMiB(live.pid), events };
  await live.close();
  console.log(JSON.stringify(out));
} else if (mode === "schema") {
  const { launchPlugin } = await import("../dist/launch.js");
  const { WireProviderConn } = await import("../dist/internal/wire-provider-conn.js");
  const { createWireClient } = await import("@magma/tfplugin");
  const p = await launchPlugin({ command: AWS });
  try {
    const conn = new WireProviderConn(createWireClient(p.protocolVersion, p.transport), p, {});
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const schema = await conn.getSchema();
    // What a configured provider serving aws_partition and aws_ssm_parameter needs.
    const used = [schema.provider.type, schema.dataSources.get("aws_partition").type, schema.resources.get("aws_ssm_parameter").type];
    const schemaCpu = cpuMs(process.cpuUsage(c0));
    const schemaWall = performance.now() - t0;
    if (used.some((t) => t === undefined)) throw new Error("schema incomplete");
    // For the record: decoding every entry up front, as an eager client would.
    const c1 = process.cpuUsage();
    let n = 0;
    for (const m of [schema.resources, schema.dataSources]) for (const [, e] of m) n += e.type === undefined ? 0 : 1;
    const eagerCpu = cpuMs(process.cpuUsage(c1));
    console.log(JSON.stringify({ schemaCpuMs: schemaCpu, schemaWallMs: schemaWall, eagerAllCpuMs: eagerCpu, entries: n }));
  } finally {
    await p.close();
  }
} else if (mode === "decode") {
  // The decode half of the schema cost, in a fresh process (cold JIT): the GetSchema reply's
  // bytes (as received; here read from the schema cache file) decoded by ProviderConn and made
  // usable, exactly as after a GetSchema call, with no process and no network involved.
  const { parseSchemaCache, binaryIdentity } = await import("../dist/schema-cache.js");
  const { createWireClient, wireMessages } = await import("@magma/tfplugin");
  const cached = parseSchemaCache(readFileSync(process.argv[3]), await binaryIdentity(AWS));
  const noNetwork = {
    unary: () => Promise.reject(new Error("no RPC expected")),
    stream: () => Promise.reject(new Error("no RPC expected")),
  };
  const { prepareCachedSchema } = await import("../dist/internal/schema-store.js");
  const { WireProviderConn } = await import("../dist/internal/wire-provider-conn.js");
  // The store decodes on demand, inside the timed getSchema call.
  const store = { check: "identity", load: async () => prepareCachedSchema(cached, wireMessages(cached.protocolVersion)), save: async () => undefined };
  const conn = new WireProviderConn(createWireClient(cached.protocolVersion, noNetwork), { exited: new Promise(() => {}), exitError: () => undefined }, { schemaStore: store });
  const c0 = process.cpuUsage();
  const schema = await conn.getSchema();
  const used = [schema.provider.type, schema.dataSources.get("aws_partition").type, schema.resources.get("aws_ssm_parameter").type];
  const decodeCpu = cpuMs(process.cpuUsage(c0));
  if (used.some((t) => t === undefined)) throw new Error("schema incomplete");
  console.log(JSON.stringify({ decodeCpuMs: decodeCpu, replyBytes: cached.reply.length }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
