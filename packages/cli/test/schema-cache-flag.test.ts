/**
 * Issue 14, defect 7 (CLI part): `--no-schema-cache` neither reads nor writes magma's
 * schema cache. A provider served from a `writeProviderLauncher` script (the native random
 * provider as a plugin), with the provider's log at debug level to see the cache's events.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { cleanUp, magma } from "./support/run-magma.js";

describe("--no-schema-cache", () => {
  let dir: string;
  let executable: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-cli-nocache-"));
    const module = createRequire(import.meta.url).resolve("@magma/provider-random");
    executable = writeProviderLauncher({ mirrorDir: join(dir, "mirror"), hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module, exportName: "createRandomProvider" }).executable;
  });
  afterAll(() => {
    cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  test("without it the schema cache is consulted; with it, never", async () => {
    const cached = await magma(["schema", executable, "--json", "--log-level", "debug"], { cache: "fresh" });
    expect(cached.code).toBe(0);
    expect(cached.stderr).toMatch(/schema cache miss/);
    const off = await magma(["schema", executable, "--json", "--log-level", "debug", "--no-schema-cache"], { cache: "fresh" });
    expect(off.code).toBe(0);
    expect(off.stderr).not.toMatch(/schema cache/);
    expect(JSON.parse(off.stdout)).toEqual(JSON.parse(cached.stdout));
  }, 120_000);

  test("is listed in the help of the provider commands", async () => {
    const r = await magma(["schema", "--help"]);
    expect(r.stdout).toMatch(/--no-schema-cache/);
  }, 60_000);
});
