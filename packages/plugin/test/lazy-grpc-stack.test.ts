import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileForPlainNode } from "./support/compile-for-plain-node.js";

// The gRPC stack (connect-rpc, protobuf-es, @magma/tfplugin's generated code) loads only
// when a provider binary is launched, after it is spawned: a host that imports the package
// and runs native providers never loads it. A plain node process runs the compiled package
// with resolve hooks that record every module it loads (test/testdata/module-load-host.mjs).

const pkg = fileURLToPath(new URL("..", import.meta.url));
const testdata = join(pkg, "test", "testdata");
/** A module of the gRPC stack, by resolved URL. */
const GRPC_MODULE = /\/@connectrpc\/|\/@bufbuild\/|\/tfplugin\/(dist|src)\/|\/grpc-stack\.js$/;

let buildDir: string;

beforeAll(() => {
  buildDir = compileForPlainNode("magma-lazy-grpc-", ["index.ts", "launch.ts"]);
}, 180_000);

afterAll(() => {
  if (buildDir !== undefined) rmSync(buildDir, { recursive: true, force: true });
});

/** The trace split at its "# step" lines: the modules resolved during each step. */
function steps(trace: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] = [];
  out.set("(start)", current);
  for (const line of trace.split("\n")) {
    if (line.startsWith("# ")) out.set(line.slice(2), (current = []));
    else if (line !== "") current.push(line);
  }
  return out;
}

test("natives do not load the gRPC stack; a launch loads it after the spawn", () => {
  const trace = join(buildDir, "trace.txt");
  const stdout = execFileSync(
    process.execPath,
    [join(testdata, "module-load-host.mjs"), trace, join(buildDir, "out"), join(testdata, "fake-plugin.mjs")],
    { encoding: "utf8", timeout: 120_000, env: { ...process.env, FAKE_MODE: "normal" } },
  );
  expect(stdout).toBe("done\n");
  const byStep = steps(readFileSync(trace, "utf8"));
  expect([...byStep.keys()]).toEqual([
    "(start)",
    "import the entry",
    "open a native provider",
    "import the launch module",
    "launch",
    "spawned",
    "launched",
    "closed",
  ]);
  // The entry, a native provider and the launch module load none of it (though they do load
  // the package and its contract: the trace is not empty)...
  const entry = byStep.get("import the entry")!;
  expect(entry.some((url) => url.endsWith("/out/index.js"))).toBe(true);
  expect(entry.some((url) => url.includes("/provider-api/"))).toBe(true);
  for (const step of ["import the entry", "open a native provider", "import the launch module", "launch"]) {
    expect({ step, grpc: byStep.get(step)!.filter((url) => GRPC_MODULE.test(url)) }).toEqual({ step, grpc: [] });
  }
  // ...and the launch loads it once the process is spawned.
  const afterSpawn = byStep.get("spawned")!;
  expect(afterSpawn.some((url) => url.endsWith("/out/internal/grpc-stack.js"))).toBe(true);
  expect(afterSpawn.some((url) => url.includes("/@connectrpc/connect-node/"))).toBe(true);
  expect(afterSpawn.some((url) => url.includes("/@bufbuild/protobuf/"))).toBe(true);
  // A launch loads at most the generated code of the protocol version the handshake names
  // (the fake plugin speaks 6; it is loaded while connecting, so it may be in flight at exit),
  // never the other version's nor the server-only services'.
  const launchedAll = [...byStep.values()].flat();
  expect(launchedAll.filter((url) => /\/gen\/(tfplugin5|grpc)\//.test(url))).toEqual([]);
  expect(launchedAll.some((url) => /\/tfplugin\/(dist|src)\/client\.js$/.test(url))).toBe(true);
}, 180_000);
