import { jsonContext } from "./json-context.js";

const TEXT = '{"resource":{"t":{"a":{"n":1,"lifecycle":[{"precondition":[{"condition":"${x}"}]}]}}},"output":{"é":{"value":"v"}}}';

describe("jsonContext", () => {
  test("the path of properties and indexes to the innermost object or array holding the offset", () => {
    expect(jsonContext(TEXT, TEXT.indexOf('"condition"'))).toBe("resource.t.a.lifecycle[0].precondition[0]");
    // A scalar value is not stepped into: its context is the object holding it.
    expect(jsonContext(TEXT, TEXT.indexOf("1,"))).toBe("resource.t.a");
    // Byte offsets: a name with a two-byte character counts two bytes.
    const bytes = Buffer.from(TEXT, "utf8");
    expect(jsonContext(TEXT, bytes.indexOf('"value"'))).toBe("output.é");
  });

  test("the root, an offset before it and text that is not JSON give none", () => {
    expect(jsonContext(TEXT, 0)).toBeUndefined();
    expect(jsonContext(TEXT, -1)).toBeUndefined();
    expect(jsonContext('{"a": {', 5)).toBeUndefined();
  });

  test("malformed text: the tree HCL's parser recovers, a value that failed to parse stepped into by no one", () => {
    const broken = '{"output": {"o": {"value": "abc\n}}}, "x": {"y": 1,}}';
    // The unterminated string is an invalid value; the objects around it parse on.
    expect(jsonContext(broken, broken.indexOf('"abc'))).toBe("output.o");
    // The object with a trailing comma failed to parse: no step into it.
    expect(jsonContext(broken, broken.indexOf('"y"'))).toBeUndefined();
  });
});
