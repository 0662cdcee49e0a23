// Two installed copies of @magma/cty must exchange values and numbers: a second copy (the
// built package, copied to a scratch node_modules) makes values that this copy accepts.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CtyNumber, Value, fromMsgpack, numberVal, objectType, objectVal, stringType, numberType, stringVal, toMsgpack } from "./index.js";
import { convert } from "./convert/index.js";
import type * as Cty from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
let scratch: string;
let other: typeof Cty;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "cty-second-copy-"));
  const pkg = join(scratch, "node_modules", "@magma", "cty");
  cpSync(join(here, "..", "dist"), join(pkg, "dist"), { recursive: true });
  cpSync(join(here, "..", "package.json"), join(pkg, "package.json"));
  writeFileSync(join(scratch, "package.json"), '{"type":"module"}');
  other = (await import(pathToFileURL(join(pkg, "dist", "index.js")).href)) as typeof Cty;
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the second copy is another module with another class", () => {
  expect(other.Value).not.toBe(Value);
  expect(other.CtyNumber).not.toBe(CtyNumber);
});

test("values and numbers of the other copy pass instanceof both ways", () => {
  expect(other.stringVal("x") instanceof Value).toBe(true);
  expect(stringVal("x") instanceof other.Value).toBe(true);
  expect(other.CtyNumber.from(3) instanceof CtyNumber).toBe(true);
  expect({ type: stringType } instanceof Value).toBe(false);
  expect((null as unknown) instanceof Value).toBe(false);
});

test("this copy builds, encodes and converts the other copy's values", () => {
  const t = objectType({ name: stringType, n: numberType });
  const v = objectVal({ name: other.stringVal("a"), n: other.numberVal(other.CtyNumber.from("1.5")) });
  expect(fromMsgpack(toMsgpack(v, t), t).rawEquals(objectVal({ name: stringVal("a"), n: numberVal("1.5") }))).toBe(true);
  expect(convert(other.stringVal("42"), numberType).asNumber().toString()).toBe("42");
  expect(numberVal(other.CtyNumber.from(7)).asNumber().toString()).toBe("7");
});
