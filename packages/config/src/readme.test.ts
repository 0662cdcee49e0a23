/**
 * The README's example is written out (importing the sources instead of the package) and
 * run: an API change that breaks it, or a result that differs from what it asserts, fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

test("the README has an example using the package", () => {
  expect(blocks).toHaveLength(1);
  expect(blocks[0]).toContain('from "@magma/config"');
});

test("the README example runs and its assertions hold", async () => {
  const dir = mkdtempSync(join(here, "../.readme-example-"));
  try {
    const file = join(dir, "example.ts");
    writeFileSync(file, `${blocks[0]!.replace(/from "@magma\/config"/g, `from ${JSON.stringify(join(here, "index"))}`)}\nexport {};\n`);
    await expect(import(pathToFileURL(file).href)).resolves.toBeDefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
