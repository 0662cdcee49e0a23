/** The README's Postgres example, run as written against a real Postgres (only the import is pointed at dist/). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openPgBackend } from "../src/index.js";
import { startPostgres, type TestPostgres } from "./support/postgres.js";

const here = dirname(fileURLToPath(import.meta.url));
const SLOW = 180_000;
let server: TestPostgres | undefined;

beforeAll(async () => {
  server = await startPostgres();
}, SLOW);
afterAll(async () => {
  await server?.stop();
});

test(
  "the README's pg example runs: it locks, reads, writes and lists through PG_CONN_STR",
  async () => {
    const readme = readFileSync(join(here, "../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Postgres backend"));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toContain('from "@magma/state"');
    const url = await server!.createDatabase("readme");
    const setup = await openPgBackend({ connStr: url, env: {} });
    await setup.store("default").write(new TextEncoder().encode('{"version": 4}\n'));
    await setup.store("staging").write(new TextEncoder().encode('{"version": 4}\n'));
    const dir = mkdtempSync(join(tmpdir(), "magma-readme-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, code!.replace('"@magma/state"', JSON.stringify(pathToFileURL(join(here, "../dist/index.js")).href)));
      const run = spawnSync(process.execPath, [file], { env: { ...process.env, PG_CONN_STR: url }, encoding: "utf8", timeout: 120_000 });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
      expect(run.stdout).toBe("[ 'default', 'staging' ]\n");
      expect(new TextDecoder().decode(await setup.store("default").read())).toBe('{"version": 4}\n');
      expect(await setup.lockHolder("default")).toBeUndefined();
    } finally {
      await setup.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  SLOW,
);
