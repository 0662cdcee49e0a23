#!/usr/bin/env node
// Fixture: a host that records which modules load at each step (see record-resolutions.mjs),
// to show that the gRPC stack loads only once a provider binary is spawned.
//   node module-load-host.mjs <trace file> <compiled package dir> <plugin binary>
// Steps, each preceded by a "# <step>" line in the trace: import the package's entry, open
// a native provider through createProviderFactory and read its schema, import the launch
// module, launch the plugin ("# spawned" is written by the launch's onSpawned), close it.
import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [trace, out, command] = process.argv.slice(2);
register(new URL("./record-resolutions.mjs", import.meta.url), { data: { trace } });
const mark = (step) => appendFileSync(trace, `# ${step}\n`);

mark("import the entry");
const plugin = await import(pathToFileURL(join(out, "index.js")).href);
mark("open a native provider");
const { createMemoryProvider } = await import("@magma/provider-api/testing");
const factory = plugin.createProviderFactory({ natives: { "magma/memory": () => createMemoryProvider() } });
const native = await factory.open("magma/memory");
await native.provider.getSchema();
await native.close();
mark("import the launch module");
const { launchPlugin } = await import(pathToFileURL(join(out, "launch.js")).href);
mark("launch");
const launched = await launchPlugin({ command, tls: false, onSpawned: () => mark("spawned") });
mark("launched");
await launched.close();
mark("closed");
process.stdout.write("done\n");
