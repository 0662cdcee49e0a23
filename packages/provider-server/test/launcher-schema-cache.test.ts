/**
 * Issue 14, defect 7: magma's schema caches (on disk, and a provider factory's in memory)
 * were keyed to the executable only, so editing the provider module behind an unchanged
 * `writeProviderLauncher` script left a stale schema. The launcher now declares its module
 * (`# magma-launcher-target:`), which joins the cache key; `schemaCache: false` turns the
 * caches off for files a launcher does not declare.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createProviderFactory, dialProvider, LAUNCHER_TARGET_MARK, type PluginLogEntry } from "@magma/plugin";
import { writeProviderLauncher } from "../src/index.js";
import { tempDir } from "./support/harness.js";

const testing = pathToFileURL(createRequire(import.meta.url).resolve("@magma/provider-api/testing")).href;
const api = pathToFileURL(createRequire(import.meta.url).resolve("@magma/provider-api")).href;
const delegating = new URL("./testdata/delegating-provider.mjs", import.meta.url).href;

/** A memory provider whose schema also has the data source `memory_marker_<tag>`. */
function writeModule(file: string, tag: string): void {
  writeFileSync(
    file,
    [
      `import { createMemoryProvider } from ${JSON.stringify(testing)};`,
      `import { createSchemaEntry } from ${JSON.stringify(api)};`,
      `import { delegatingProvider } from ${JSON.stringify(delegating)};`,
      `export function createProvider() {`,
      `  const p = createMemoryProvider();`,
      `  return delegatingProvider(p, { async getSchema(o) {`,
      `    const s = await p.getSchema(o);`,
      `    return { ...s, dataSources: new Map([...s.dataSources, [${JSON.stringify(`memory_marker_${tag}`)}, createSchemaEntry({ attributes: {} })]]) };`,
      `  } });`,
      `}`,
      ``,
    ].join("\n"),
  );
}

function markers(names: Iterable<string>): string[] {
  return [...names].filter((n) => n.startsWith("memory_marker_"));
}

describe("schema caches and script launchers", () => {
  let tmp: { dir: string; cleanup(): void };
  let module: string;
  let executable: string;
  const events: string[] = [];
  const logger = { log: (e: PluginLogEntry) => void (e.message.startsWith("schema cache") && events.push(e.message.split(":")[0]!)) };

  beforeAll(() => {
    tmp = tempDir("mlsc-");
    module = join(tmp.dir, "provider.mjs");
    writeModule(module, "v1");
    executable = writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module }).executable;
  });
  afterAll(() => tmp.cleanup());

  test("the launcher declares its entry and its provider module", () => {
    const text = readFileSync(executable, "utf8");
    expect(text).toContain(`# ${LAUNCHER_TARGET_MARK} ${module}`);
    expect(text).toMatch(new RegExp(`# ${LAUNCHER_TARGET_MARK} /.*/magma-entry\\.mjs`));
  });

  test("on-disk cache: a second launch uses the stored schema; after the module is edited, the new schema is fetched", async () => {
    const cacheDir = join(tmp.dir, "cache");
    const dial = async (): Promise<string[]> => {
      const live = await dialProvider({ binary: executable, schemaCacheDir: cacheDir, logger });
      try {
        return markers(live.schema.dataSources.keys());
      } finally {
        await live.close();
      }
    };
    events.length = 0;
    expect(await dial()).toEqual(["memory_marker_v1"]);
    expect(await dial()).toEqual(["memory_marker_v1"]);
    expect(events).toEqual(["schema cache miss", "schema cache stored", "schema cache hit"]);
    writeModule(module, "v2");
    expect(await dial()).toEqual(["memory_marker_v2"]);
  }, 120_000);

  test("a factory's in-memory schemas: an edited module gives the new schema", async () => {
    const factory = createProviderFactory({ schemaCacheDir: join(tmp.dir, "cache-f") });
    const open = async (): Promise<string[]> => {
      const live = await factory.open(executable);
      try {
        return markers(live.schema.dataSources.keys());
      } finally {
        await live.close();
      }
    };
    writeModule(module, "v3");
    expect(await open()).toEqual(["memory_marker_v3"]);
    expect(factory.cachedSchemas).toBe(1);
    writeModule(module, "v4");
    expect(await open()).toEqual(["memory_marker_v4"]);
  }, 120_000);

  test("schemaCache: false — nothing cached on disk or in the factory, every launch asks the provider (for files a launcher does not declare)", async () => {
    // A launcher of its own that declares nothing: the module behind it is invisible to the caches.
    const bare = join(tmp.dir, "terraform-provider-bare");
    const script = readFileSync(executable, "utf8")
      .split("\n")
      .filter((l) => !l.includes(LAUNCHER_TARGET_MARK))
      .join("\n")
      .replace('"$here/magma-entry.mjs"', JSON.stringify(join(dirname(executable), "magma-entry.mjs")));
    writeFileSync(bare, script, { mode: 0o755 });
    const cacheDir = join(tmp.dir, "cache-off");
    const factory = createProviderFactory({ schemaCacheDir: cacheDir, schemaCache: false });
    const open = async (): Promise<string[]> => {
      const live = await factory.open(bare);
      try {
        return markers(live.schema.dataSources.keys());
      } finally {
        await live.close();
      }
    };
    writeModule(module, "v5");
    expect(await open()).toEqual(["memory_marker_v5"]);
    writeModule(module, "v6");
    expect(await open()).toEqual(["memory_marker_v6"]);
    expect(factory.cachedSchemas).toBe(0);
    expect(() => readdirSync(cacheDir)).toThrow(/ENOENT/);
  }, 120_000);
});
