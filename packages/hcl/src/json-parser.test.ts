import { parseJsonNode } from "./json-parser.js";
import { JsonSourceMap, formatRange } from "./source-range.js";

/** Each diagnostic as `summary @ range`, the range as HCL prints it. */
function diags(text: string): string[] {
  return parseJsonNode(new JsonSourceMap("m.tf.json", text)).diags.map((d) => `${d.summary} @ ${formatRange(d.subject!)}`);
}

// Expected values are what HCL's JSON parser (hcl/v2 v2.23.0 json/parser.go, scanner.go, as
// terraform 1.11.4 bundles it) reports for the same text: terraform validate -json showed them.
describe("parseJsonNode: HCL's JSON parser, error recovery included", () => {
  test("a trailing comma: the object is invalid, its parent goes on", () => {
    const r = parseJsonNode(new JsonSourceMap("m.tf.json", '{"resource": {"a": 1,}}'));
    expect(r.diags.map((d) => [d.summary, d.detail, formatRange(d.subject!)])).toEqual([
      ["Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", "m.tf.json:1,21-22"],
    ]);
    expect(r.node?.type).toBe("object");
    const v = r.node?.type === "object" ? r.node.props[0]!.value : undefined;
    expect(v?.type).toBe("invalid");
    expect(formatRange(v!.range)).toBe("m.tf.json:1,14-15");
  });

  test("an unclosed object: each enclosing object is unclosed too", () => {
    expect(diags('{"output": {"o": {"value": [1, 2\n}}}\n')).toEqual([
      "Mismatched brackets @ m.tf.json:3,1-1",
      "Unclosed object @ m.tf.json:1,18-19",
      "Unclosed object @ m.tf.json:1,12-13",
      "Unclosed object @ m.tf.json:1,1-2",
    ]);
    expect(diags('{"output": {"o": {"value": 1}}\n')).toEqual(["Unclosed object @ m.tf.json:1,1-2"]);
  });

  test("a string left open across lines ends at the line's end; the error is one byte past its text", () => {
    const r = parseJsonNode(new JsonSourceMap("m.tf.json", '{"value": "abc\n}'));
    expect(r.diags.map((d) => [d.summary, d.detail, formatRange(d.subject!), formatRange(d.context!)])).toEqual([
      ["Invalid JSON string", "There is a syntax error in the given JSON string.", "m.tf.json:1,15-16", "m.tf.json:1,11-15"],
    ]);
    // Recovered: the object closes on the next line.
    expect(r.node?.type).toBe("object");
  });

  test("strings: a bad escape is reported one byte past the offending one, as Go's encoding/json", () => {
    expect(diags('{"a": "x\\qy"}')).toEqual(["Invalid JSON string @ m.tf.json:1,11-12"]);
    expect(diags('{"a": "\\u12G4"}')).toEqual(["Invalid JSON string @ m.tf.json:1,13-14"]);
  });

  test("numbers and keywords are scanned laxly and then checked", () => {
    expect(diags('{"v": 1.2.3}')).toEqual(["Invalid JSON number @ m.tf.json:1,7-12"]);
    const kw = parseJsonNode(new JsonSourceMap("m.tf.json", '{"v": True, "w": NaN}')).diags;
    expect(kw.map((d) => d.detail)).toEqual(['"True" is not a valid JSON keyword. Did you mean "true"?', 'The JavaScript identifier "NaN" cannot be used in JSON.']);
  });

  test("punctuation mistakes", () => {
    expect(diags('{"output" = {}}')).toEqual(["Missing property value colon @ m.tf.json:1,11-12"]);
    expect(diags('{"a" }')).toEqual(["Missing object value @ m.tf.json:1,6-7"]);
    expect(diags('{"a": 1 "b": 2}')).toEqual(["Missing attribute seperator comma @ m.tf.json:1,16-16"]);
    expect(diags('{"a": [1 2]}')).toEqual(["Missing attribute seperator comma @ m.tf.json:1,12-13"]);
    expect(diags('{"a": [1: 2]}')).toEqual(["Invalid array value @ m.tf.json:1,13-14"]);
    expect(diags('{a: 1}')).toEqual(["Invalid JSON keyword @ m.tf.json:1,2-3", "Invalid object property name @ m.tf.json:1,2-3"]);
    expect(diags("{\"a\": 'x'}")).toEqual(["Invalid start of value @ m.tf.json:1,7-8", "Missing attribute seperator comma @ m.tf.json:1,8-8"]);
    expect(diags("")).toEqual(["Missing value @ m.tf.json:1,1-1"]);
    // A character that starts no token is one byte long, whatever its length, and ends the scan.
    expect(diags('{"a": é}').map((d) => d.replace(/ @ .*:/, " @ "))).toEqual(["Invalid start of value @ 1,7-8", "Missing attribute seperator comma @ 1,8-8"]);
    expect(parseJsonNode(new JsonSourceMap("m.tf.json", '{"a": é}')).diags[1]!.subject!.end.byte).toBe(7);
    expect(diags("{} {}")).toEqual(["Extraneous data after value @ m.tf.json:1,4-5"]);
  });

  test("positions: a tab between tokens takes two columns, a carriage return none", () => {
    expect(diags('{\r\n\t"a": 1,}')).toEqual(["Trailing comma in object @ m.tf.json:2,9-10"]);
  });

  test("nesting beyond the limit is one diagnostic, not a stack overflow", () => {
    expect(diags("[".repeat(10000)).map((d) => d.split(" @")[0])).toEqual(["Nesting too deep"]);
  });
});
