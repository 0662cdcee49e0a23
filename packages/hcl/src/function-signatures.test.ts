import { boolType, dynamicType, listType, stringType, typeToJson } from "@magma/cty";
import { terraformFunctions } from "./funcs/index.js";
import { functionSignatures } from "./function-signatures.js";

describe("functionSignatures", () => {
  const sigs = functionSignatures(terraformFunctions());

  test("each function under its name and its core:: name, sorted, without the removed list and map", () => {
    const names = [...sigs.keys()];
    expect(names).toEqual([...names].sort());
    expect(sigs.get("core::abs")).toBe(sigs.get("abs"));
    expect(sigs.has("list")).toBe(false);
    expect(sigs.has("map")).toBe(false);
    for (const n of ["try", "can", "templatefile", "templatestring", "ephemeralasnull"]) expect(sigs.has(n) && sigs.has(`core::${n}`)).toBe(true);
  });

  test("return types as go-cty's ReturnType over unknown arguments of the parameter types", () => {
    expect(typeToJson(sigs.get("tolist")!.returnType)).toBe(typeToJson(listType(dynamicType)));
    expect(sigs.get("upper")!.returnType).toBe(stringType);
    expect(sigs.get("can")!.returnType).toBe(boolType);
    // A dynamic parameter that does not take the dynamic pseudo-type makes the result dynamic.
    expect(sigs.get("zipmap")!.returnType).toBe(dynamicType);
  });

  test("parameters keep their names and nullability; variadic parameters are separate", () => {
    const coalesce = sigs.get("coalesce")!;
    expect(coalesce.params).toEqual([]);
    expect(coalesce.varParam).toMatchObject({ name: "vals", isNullable: true });
    expect(sigs.get("format")!.params.map((p) => p.name)).toEqual(["format"]);
  });
});
