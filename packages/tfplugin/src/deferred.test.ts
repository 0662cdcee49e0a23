import { fromBinary } from "@bufbuild/protobuf";
import { isProviderError, type Deferred } from "@magma/provider-api";
import { DeferredSchema } from "./gen/tfplugin6/tfplugin6_pb.js";
import { deferredFromProto, deferredToProto } from "./deferred.js";

describe("Deferred", () => {
  test.each<Deferred["reason"]>(["unknown", "resource_config_unknown", "provider_config_unknown", "absent_prereq"])("%s round-trips through its wire number", (reason) => {
    const wire = deferredToProto({ reason });
    expect(deferredFromProto(wire, "PlanResourceChange")).toEqual({ reason });
  });

  test("the numbers are tfplugin's", () => {
    expect(deferredToProto({ reason: "provider_config_unknown" })).toEqual({ reason: 2 });
    expect(deferredToProto({ reason: "absent_prereq" })).toEqual({ reason: 3 });
  });

  test("absent is undefined; an unknown reason is invalid_response naming the RPC", () => {
    expect(deferredFromProto(undefined, "ReadResource")).toBeUndefined();
    try {
      // A newer peer's reason number, as the generated decoder hands it over (field 1 = 9).
      deferredFromProto(fromBinary(DeferredSchema, new Uint8Array([0x08, 0x09])), "ReadResource");
      throw new Error("expected invalid_response");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "invalid_response") throw e;
      expect(e.message).toContain("unknown deferral reason 9");
    }
  });
});
