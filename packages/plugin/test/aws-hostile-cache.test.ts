/**
 * Issue 14, defect 8 through the public API: a dial whose schema cache file is a FIFO and
 * whose validation memory is a link to /dev/zero completes (the schema is fetched, the
 * configuration validated), instead of hanging or reading without end.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dialConfiguredProvider } from "../src/dial-provider.js";
import { binaryIdentity, schemaCacheFile } from "../src/schema-cache.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;

d("dialing hashicorp/aws with hostile cache files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-hostile-dial-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a FIFO as the schema cache file and /dev/zero as the validation memory: the dial completes, the host's memory stays flat", async () => {
    mkdirSync(dir, { recursive: true });
    const file = schemaCacheFile(dir, await binaryIdentity(AWS_BINARY));
    execFileSync("mkfifo", [file]);
    symlinkSync("/dev/zero", file.replace(/\.bin$/, ".validated.json"));
    const before = process.memoryUsage().rss;
    const live = await dialConfiguredProvider({ binary: AWS_BINARY, config: AWS_OFFLINE_CONFIG, schemaCacheDir: dir });
    try {
      expect(live.schema.resources.has("aws_vpc")).toBe(true);
      expect(process.memoryUsage().rss - before).toBeLessThan(1024 * 1024 * 1024);
    } finally {
      await live.close();
    }
  }, 180_000);
});
