import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, typeFromJson } from "@magma/cty";
import { formatResourceInstance } from "./address/resource-address.js";
import { readStateFile } from "./read-state-file.js";
import { decodeSensitivePaths, encodeSensitivePaths } from "./sensitive-paths.js";
import { isStateError } from "./state-error.js";
import { newStateFile } from "./state-file.js";
import { formatStateFile } from "./write-state-file.js";
import { errorCode as code } from "../test/support/state-errors.js";

const here = dirname(fileURLToPath(import.meta.url));
/** Written by terraform 1.11.4 (apply of a config using the native random provider, then `terraform taint`). */
const TF_WRITTEN = readFileSync(join(here, "testdata/terraform-1.11.4.tfstate"), "utf8");

describe("state file v4", () => {
  it("writes a state terraform wrote byte for byte as terraform did", () => {
    const file = readStateFile(TF_WRITTEN)!;
    expect(formatStateFile(file)).toBe(TF_WRITTEN);
  });

  it("reads every part of it", () => {
    const file = readStateFile(Buffer.from(TF_WRITTEN))!;
    expect(file.terraformVersion).toBe("1.11.4");
    expect(file.serial).toBeGreaterThan(0);
    expect(file.lineage).toMatch(/^[0-9a-f-]{36}$/);
    const pw = file.outputs.get("pw")!;
    expect(pw.sensitive).toBe(true);
    expect(typeFromJson(pw.typeJson).kind).toBe("string");
    const big = file.outputs.get("big")!;
    expect(big.valueJson).toBe("12345678901234567890");
    expect(fromJson(big.valueJson, typeFromJson(big.typeJson)).type.kind).toBe("number");
    const addrs = file.resources.flatMap((r) => r.instances.map((o) => formatResourceInstance({ ...r, key: o.indexKey })));
    expect(addrs).toEqual(
      expect.arrayContaining(['random_string.s["é"]', "random_integer.n[2]", 'module.f["b c"].random_string.p', "module.m[1].random_string.p", "random_uuid.u"]),
    );
    const u = file.resources.find((r) => r.type === "random_uuid")!.instances[0]!;
    expect(u.tainted).toBe(true);
    const s = file.resources.find((r) => r.type === "random_string" && r.module.length === 0)!;
    expect(s.instances[0]!.dependencies).toEqual(["random_id.id"]);
    expect(s.instances[0]!.createBeforeDestroy).toBe(true);
    expect(s.instances[0]!.schemaVersion).toBe(2);
    expect(JSON.parse(s.instances[0]!.attributesJson!)).toHaveProperty("length", 12);
    const sh = file.resources.find((r) => r.type === "random_shuffle")!;
    expect(sh.provider.alias).toBe("west");
    expect(file.checkResults).toEqual([{ objectKind: "check", configAddr: "check.c", status: "pass", objects: [{ objectAddr: "check.c", status: "pass", failureMessages: [] }] }]);
    const pwRes = file.resources.find((r) => r.type === "random_password")!.instances[0]!;
    expect(JSON.parse(pwRes.sensitiveAttributesJson)).toContainEqual([{ type: "get_attr", value: "result" }]);
  });

  it("sorts resources and instances and reindents compact input as Terraform does", () => {
    // Strings in the file hold no raw newlines, so this removes only indentation.
    const compact = TF_WRITTEN.replace(/\n */g, "").replace(/": /g, '":');
    const file = readStateFile(compact)!;
    file.resources.reverse();
    for (const r of file.resources) r.instances.reverse();
    expect(formatStateFile(file)).toBe(TF_WRITTEN);
  });

  it("re-bases attributes printed at another depth", () => {
    const shifted = TF_WRITTEN.replace(/\n/g, "\n  ");
    expect(formatStateFile(readStateFile(shifted)!)).toBe(TF_WRITTEN);
    const text = '{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"t","name":"n","provider":"provider[\\"registry.terraform.io/hashicorp/t\\"]","instances":[{"schema_version":0,"attributes":{\n  "a": [\n    1\n  ]\n}}]}]}';
    const f = readStateFile(text)!;
    expect(formatStateFile(f)).toContain('"attributes": {\n            "a": [\n              1\n            ]\n          },');
    // A replaced attributes string is printed in full, whatever it looks like.
    f.resources[0]!.instances[0]!.attributesJson = '{"b":{"c":"<"}}';
    expect(formatStateFile(f)).toContain('"attributes": {\n            "b": {\n              "c": "\\u003c"\n            }\n          },');
  });

  it("prints attributes that are pretty but not as Go prints them as Terraform would", () => {
    const base = readStateFile(TF_WRITTEN)!;
    const r = base.resources.find((x) => x.type === "random_id")!;
    const attrs = JSON.parse(r.instances[0]!.attributesJson!) as Record<string, unknown>;
    // Four-space indentation and a raw "<": not Go's form, so the writer re-indents and escapes.
    const text = TF_WRITTEN.replace(/"attributes": \{[^}]*\}/, `"attributes": ${JSON.stringify(attrs, null, 4)}`);
    expect(text).not.toBe(TF_WRITTEN);
    expect(formatStateFile(readStateFile(text)!)).toBe(TF_WRITTEN);
  });

  it("keeps deposed objects, private data, flatmap attributes and legacy provider addresses", () => {
    const text = JSON.stringify({
      version: 4,
      terraform_version: "0.13.0",
      serial: 3,
      lineage: "l",
      outputs: {},
      resources: [
        {
          module: "module.a",
          mode: "data",
          type: "t",
          name: "n",
          each: "list",
          provider: "module.a.provider.aws.west",
          instances: [
            { index_key: 1, deposed: "00000002", schema_version: 1, attributes: { a: 1 }, private: "aGVsbG8=" },
            { index_key: 1, schema_version: 1, attributes_flat: { "b.%": "0", a: "x" } },
            { index_key: 0, deposed: "00000001", schema_version: 1, attributes: { a: "<&>" }, sensitive_attributes: [[{ type: "index", value: { value: 0, type: "number" } }]] },
          ],
        },
      ],
    });
    const file = readStateFile(text)!;
    const out = formatStateFile(file);
    expect(out).toContain('"provider": "module.a.provider[\\"registry.terraform.io/-/aws\\"].west"');
    const back = JSON.parse(out) as { resources: { each?: string; instances: Record<string, unknown>[] }[]; check_results: unknown };
    expect(back.resources[0]!.each).toBeUndefined();
    expect(back.check_results).toBeNull();
    expect(back.resources[0]!.instances).toEqual([
      { index_key: 0, deposed: "00000001", schema_version: 1, attributes: { a: "<&>" }, sensitive_attributes: [[{ type: "index", value: { value: 0, type: "number" } }]] },
      { index_key: 1, schema_version: 1, attributes_flat: { "b.%": "0", a: "x" }, sensitive_attributes: [] },
      { index_key: 1, deposed: "00000002", schema_version: 1, attributes: { a: 1 }, sensitive_attributes: [], private: "aGVsbG8=" },
    ]);
    expect(out).toContain('"a": "\\u003c\\u0026\\u003e"');
    expect(Buffer.from(file.resources[0]!.instances[0]!.private!).toString()).toBe("hello");
    // Writing what was written changes nothing.
    expect(formatStateFile(readStateFile(out)!)).toBe(out);
  });

  it("decodes and encodes sensitive paths", () => {
    const file = readStateFile(TF_WRITTEN)!;
    const pw = file.resources.find((r) => r.type === "random_password")!.instances[0]!;
    const paths = decodeSensitivePaths(pw.sensitiveAttributesJson);
    expect(paths.map(String)).toContain("result");
    const json = '[[{"type":"get_attr","value":"a"},{"type":"index","value":{"value":0,"type":"number"}},{"type":"index","value":{"value":"k","type":"string"}}]]';
    expect(encodeSensitivePaths(decodeSensitivePaths(json))).toBe(json);
    expect(() => decodeSensitivePaths('[[{"type":"index","value":{"value":true,"type":"bool"}}]]')).toThrow(/\[corrupt\]/);
  });

  it("reads and writes the check results of variables with validations (object kind var, Terraform 1.9+)", () => {
    // As terraform 1.11.4 writes them for `variable "n" { validation { … } }`.
    const text = `{\n  "version": 4,\n  "terraform_version": "1.11.4",\n  "serial": 1,\n  "lineage": "5b0c1a4e-2f4b-4c55-8d7e-0f1d2c3b4a59",\n  "outputs": {},\n  "resources": [],\n  "check_results": [\n    {\n      "object_kind": "var",\n      "config_addr": "var.n",\n      "status": "pass",\n      "objects": [\n        {\n          "object_addr": "var.n",\n          "status": "pass"\n        }\n      ]\n    }\n  ]\n}\n`;
    const file = readStateFile(text)!;
    expect(file.checkResults).toEqual([{ objectKind: "var", configAddr: "var.n", status: "pass", objects: [{ objectAddr: "var.n", status: "pass", failureMessages: [] }] }]);
    expect(formatStateFile(file)).toBe(text);
  });

  it("writes a new state Terraform can read", () => {
    const f = newStateFile();
    expect(formatStateFile(f)).toBe(
      `{\n  "version": 4,\n  "terraform_version": "1.11.4",\n  "serial": 0,\n  "lineage": "${f.lineage}",\n  "outputs": {},\n  "resources": [],\n  "check_results": null\n}\n`,
    );
  });

  it("refuses JSON nested deeper than Go's limit of 10,000 levels, as Terraform does (fuzz finding)", () => {
    // Before: any depth was read, and a 135 kB state of 10,000-deep attributes was written back
    // as 184 MB (MarshalIndent indents every level) in seconds. The attributes value opens at
    // depth 6 (state, resources, resource, instances, instance, attributes).
    const state = (n: number, pretty: boolean): string => {
      const v = pretty ? `${Array.from({ length: n }, (_, i) => `[\n${"  ".repeat(i + 6)}`).join("")}1${Array.from({ length: n }, (_, i) => `\n${"  ".repeat(n - i + 4)}]`).join("")}` : `${"[".repeat(n)}1${"]".repeat(n)}`;
      return `{"version":4,"serial":1,"lineage":"x","resources":[{"mode":"managed","type":"a_b","name":"c","provider":"provider[\\"registry.terraform.io/hashicorp/a\\"]","instances":[{"schema_version":0,"attributes":{"x":${v}}}]}]}`;
    };
    expect(readStateFile(state(9994, false))!.resources[0]!.instances[0]!.attributesJson).toMatch(/^\{"x":\[{9994}1/);
    for (const pretty of [false, true]) {
      let error: unknown;
      try {
        readStateFile(state(9995, pretty));
      } catch (e) {
        error = e;
      }
      expect(isStateError(error) && error.code).toBe("corrupt");
      expect((error as Error).message).toMatch(/more than 10000 levels deep .*exceeded max depth/);
    }
    // Anywhere in the file, also where the reader only skips (an unknown key, the version sniffing).
    expect(() => readStateFile(`{"extra": ${"[".repeat(10_000)}${"]".repeat(10_000)}, "version": 4}`)).toThrow(/exceeded max depth/);
  });

  it("returns undefined for an empty file", () => {
    expect(readStateFile(new Uint8Array())).toBeUndefined();
  });

  it.each([
    [1, "unsupported_version"],
    [2, "unsupported_version"],
    [3, "unsupported_version"],
    [5, "unsupported_version"],
    [0, "unsupported_version"],
  ])("refuses format version %d", (v, c) => {
    expect(code(() => readStateFile(JSON.stringify({ version: v, serial: 1, lineage: "x" })))).toBe(c);
  });

  it("says what to do about an old or new format", () => {
    expect(() => readStateFile('{"version":3}')).toThrow(/format version 3 .*upgrade/);
    expect(() => readStateFile('{"version":5,"terraform_version":"2.0.0"}')).toThrow(/newer/);
  });

  const base = JSON.parse(TF_WRITTEN) as Record<string, unknown>;
  const mutate = (f: (s: Record<string, unknown> & { resources: Record<string, unknown>[] }) => void): string => {
    const s = structuredClone(base) as Record<string, unknown> & { resources: Record<string, unknown>[] };
    f(s);
    return JSON.stringify(s);
  };
  const inst = (s: { resources: Record<string, unknown>[] }): Record<string, unknown> => (s.resources[0]!["instances"] as Record<string, unknown>[])[0]!;

  it.each([
    ["truncated", TF_WRITTEN.slice(0, TF_WRITTEN.length / 2)],
    ["trailing garbage", TF_WRITTEN + "x"],
    ["not JSON", "hello"],
    ["an array", "[]"],
    ["no version", '{"serial":1}'],
    ["a string version", '{"version":"4"}'],
    ["a negative serial", mutate((s) => (s["serial"] = -1))],
    ["a fractional serial", mutate((s) => (s["serial"] = 1.5))],
    ["a bad mode", mutate((s) => (s.resources[0]!["mode"] = "ephemeral"))],
    ["a bad module", mutate((s) => (s.resources[0]!["module"] = "mod.x"))],
    ["a bad provider", mutate((s) => (s.resources[0]!["provider"] = "aws"))],
    ["a bad status", mutate((s) => (inst(s)["status"] = "broken"))],
    ["a bad deposed key", mutate((s) => (inst(s)["deposed"] = "abc"))],
    ["a bad index key", mutate((s) => (inst(s)["index_key"] = true))],
    ["bad base64", mutate((s) => (inst(s)["private"] = "!!"))],
    ["a bad dependency", mutate((s) => (inst(s)["dependencies"] = ["var.x"]))],
    ["bad sensitive paths", mutate((s) => (inst(s)["sensitive_attributes"] = [{ type: "get_attr" }]))],
    ["a bad output type", mutate((s) => ((s["outputs"] as Record<string, Record<string, unknown>>)["id"]!["type"] = "strang"))],
    ["an output value not of its type", mutate((s) => ((s["outputs"] as Record<string, Record<string, unknown>>)["id"]!["type"] = "bool"))],
    ["a bad terraform_version", mutate((s) => (s["terraform_version"] = "one"))],
    ["a duplicate instance", mutate((s) => (s.resources[0]!["instances"] = [inst(s), inst(s)]))],
    ["a bad check kind", mutate((s) => ((s["check_results"] as Record<string, unknown>[])[0]!["object_kind"] = "x"))],
    ["an invalid escape in attributes", TF_WRITTEN.replace('"b64_std": "', '"b64_std": "\\x')],
    ["a raw control character", TF_WRITTEN.replace('"b64_std": "', '"b64_std": "\u0001')],
  ])("refuses %s as corrupt", (_what, text) => {
    expect(code(() => readStateFile(text))).toBe("corrupt");
  });

  it("names the offset of a syntax error", () => {
    expect(() => readStateFile('{"version": 4, "serial": }')).toThrow(/\[corrupt\] .*offset 25/);
  });
});
