/**
 * convert() against go-cty 1.12.1's convert.Convert: testdata/convert-vectors.json was
 * produced by testdata/gen/main.go, which feeds each input (a dynamic-typed JSON value) and
 * wanted type to go-cty and records the result (as dynamic JSON, so its type is included)
 * or the error text and path.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, toJson } from "../json/index.js";
import { formatErrorPath, isPathError } from "../path-error.js";
import { typeFromJson } from "../type-json.js";
import { dynamicType } from "../type.js";
import { convert } from "./convert.js";

interface ConvertVec {
  input: string;
  want: string;
  result?: string;
  error?: string;
  path?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const vectors = JSON.parse(
  readFileSync(join(here, "testdata/convert-vectors.json"), "utf8"),
) as ConvertVec[];

test("the vectors are present", () => {
  expect(vectors.length).toBeGreaterThan(60);
});

test.each(vectors.map((v) => [`${v.input} -> ${v.want}`, v] as const))("%s", (_name, v) => {
  const input = fromJson(v.input, dynamicType);
  const want = typeFromJson(v.want);
  if (v.result !== undefined) {
    expect(toJson(convert(input, want), dynamicType)).toBe(v.result);
    return;
  }
  let error: unknown;
  try {
    convert(input, want);
  } catch (e) {
    error = e;
  }
  expect(isPathError(error)).toBe(true);
  if (!isPathError(error)) return;
  expect(error.code).toBe("type_mismatch");
  expect(error.reason).toBe(v.error);
  expect(formatErrorPath(error.path)).toBe(v.path);
});
