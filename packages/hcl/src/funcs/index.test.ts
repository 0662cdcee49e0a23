import { terraformFunctions } from "./index.js";

describe("terraformFunctions", () => {
  it("has every built-in of terraform 1.11 except the evaluator's own forms", () => {
    const names = [...terraformFunctions().keys()];
    expect(names).toHaveLength(116);
    for (const n of ["abs", "cidrsubnets", "yamldecode", "plantimestamp", "ephemeralasnull", "issensitive", "strcontains", "textdecodebase64"]) {
      expect(names).toContain(n);
    }
    for (const n of ["try", "can", "templatefile", "templatestring", "type"]) expect(names).not.toContain(n);
  });
});
