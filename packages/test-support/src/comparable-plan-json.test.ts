import { comparablePlanJson } from "./comparable-plan-json.js";

describe("comparablePlanJson", () => {
  test("drops the timestamp and orders relevant_attributes, leaving the input as it was", () => {
    const doc = {
      format_version: "1.2",
      timestamp: "2026-12-01T00:00:00Z",
      relevant_attributes: [
        { resource: "b", attribute: ["x"] },
        { resource: "a", attribute: ["y"] },
      ],
    };
    expect(comparablePlanJson(doc)).toEqual({
      format_version: "1.2",
      relevant_attributes: [
        { resource: "a", attribute: ["y"] },
        { resource: "b", attribute: ["x"] },
      ],
    });
    expect(doc.timestamp).toBe("2026-12-01T00:00:00Z");
    expect(doc.relevant_attributes[0]!.resource).toBe("b");
  });

  test("a document without relevant_attributes keeps the rest", () => {
    expect(comparablePlanJson({ timestamp: "t", applyable: true })).toEqual({ applyable: true });
  });
});
