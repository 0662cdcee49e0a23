import { isAwsError } from "./aws-error.js";
import { parseQueryParams, queryString, queryStringList, queryStructList } from "./query-params.js";

describe("parseQueryParams", () => {
  test("decodes EC2 structured lists, 1-based and ordered by index", () => {
    const body =
      "Action=AllocateAddress&Version=2016-11-15&Domain=vpc" +
      "&TagSpecification.1.ResourceType=elastic-ip&TagSpecification.1.Tag.2.Key=b&TagSpecification.1.Tag.2.Value=2" +
      "&TagSpecification.1.Tag.1.Key=a&TagSpecification.1.Tag.1.Value=1&AllocationId.10=x10&AllocationId.2=x2";
    expect(parseQueryParams(body)).toEqual({
      Action: "AllocateAddress",
      Version: "2016-11-15",
      Domain: "vpc",
      TagSpecification: [{ ResourceType: "elastic-ip", Tag: [{ Key: "a", Value: "1" }, { Key: "b", Value: "2" }] }],
      AllocationId: ["x2", "x10"],
    });
  });

  test("decodes percent-encoding and plus signs", () => {
    expect(parseQueryParams("Tag.1.Value=a%20b+c%26d%3D")).toEqual({ Tag: [{ Value: "a b c&d=" }] });
  });

  test("an empty body is an empty tree", () => {
    expect(parseQueryParams("")).toEqual({});
  });

  test.each([
    ["A=1&A.B=2", "has both a value and sub-parameters"],
    ["A.B=2&A=1", "more than once"],
    ["A=1&A=2", "more than once"],
    ["A..B=1", "empty segment"],
    ["L.0=x", "must be 1 or greater"],
  ])("rejects %s with MalformedQueryString", (body, fragment) => {
    let caught: unknown;
    try {
      parseQueryParams(body);
    } catch (e) {
      caught = e;
    }
    expect(isAwsError(caught)).toBe(true);
    expect((caught as Error & { code: string }).code).toBe("MalformedQueryString");
    expect((caught as Error).message).toContain(fragment);
  });

  test("typed readers accept the right shapes and name the parameter otherwise", () => {
    const t = parseQueryParams("S=x&L.1=a&L.2=b&T.1.K=v");
    expect(queryString(t, "S")).toBe("x");
    expect(queryString(t, "missing")).toBeUndefined();
    expect(queryStringList(t, "L")).toEqual(["a", "b"]);
    expect(queryStringList(t, "S")).toEqual(["x"]);
    expect(queryStringList(t, "missing")).toEqual([]);
    expect(queryStructList(t, "T")).toEqual([{ K: "v" }]);
    expect(() => queryString(t, "L")).toThrow("'L' must be a single value");
    expect(() => queryStringList(t, "T")).toThrow("'T' must be a list of values");
    expect(() => queryStructList(t, "L")).toThrow("'L' must be a list of structures");
  });
});
