import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { stringType } from "@magma/cty";
import type { Block } from "@magma/provider-api";
import * as v5 from "./gen/tfplugin5/tfplugin5_pb.js";
import * as v6 from "./gen/tfplugin6/tfplugin6_pb.js";
import { blockFromProto, blockToProto } from "./schema.js";

const block: Block = {
  attributes: {
    value_wo: { type: stringType, optional: true, sensitive: true, writeOnly: true },
    value: { type: stringType, optional: true },
  },
  blockTypes: { cred: { nesting: "list", block: { attributes: { password_wo: { type: stringType, optional: true, writeOnly: true } } } } },
};

describe("write-only attributes on the wire", () => {
  test.each([
    [5, 10],
    [6, 11],
  ] as const)("protocol %d carries write_only as field %d, both ways", (version, field) => {
    const gen = version === 5 ? v5 : v6;
    const proto = blockToProto(block, version);
    const wo = proto.attributes.find((a) => a.name === "value_wo")!;
    // The attribute's encoding ends with the write_only field (deprecation_message, the only later one, is empty).
    const bytes = toBinary(gen.Schema_AttributeSchema, create(gen.Schema_AttributeSchema, wo));
    expect([...bytes.slice(-2)]).toEqual([(field << 3) | 0, 1]);
    const plainBytes = toBinary(gen.Schema_AttributeSchema, create(gen.Schema_AttributeSchema, proto.attributes.find((a) => a.name === "value")!));
    expect(plainBytes.includes((field << 3) | 0)).toBe(false);
    const wire = fromBinary(gen.Schema_BlockSchema, toBinary(gen.Schema_BlockSchema, create(gen.Schema_BlockSchema, proto)));
    const back = blockFromProto(wire, () => "test");
    expect(back.attributes!["value_wo"]).toMatchObject({ optional: true, sensitive: true, writeOnly: true });
    expect(back.attributes!["value"]!.writeOnly).toBeUndefined();
    expect(back.blockTypes!["cred"]!.block.attributes!["password_wo"]!.writeOnly).toBe(true);
  });
});
