// The main job until the CLI lands: a narrated round trip of a realistic value through the
// cty codecs, showing that what magma sends is what go-cty would send.
import {
  fromJson,
  fromMsgpack,
  listType,
  mapType,
  Mark,
  numberType,
  numberVal,
  objectType,
  objectVal,
  setType,
  setVal,
  stringType,
  stringVal,
  toJson,
  toMsgpack,
  unknownVal,
  mapVal,
  listVal,
  boolType,
  boolVal,
  typeToJson,
} from "@magma/cty";

const hex = (b) => Buffer.from(b).toString("hex").replace(/(..)/g, "$1 ").trim();

const ruleType = objectType({ port: numberType, cidr: stringType });
const type = objectType({
  name: stringType,
  size: numberType,
  exact: numberType,
  enabled: boolType,
  tags: mapType(stringType),
  zones: setType(stringType),
  rules: listType(ruleType),
  arn: stringType,
});
console.log("type:", typeToJson(type));

const planned = objectVal({
  name: stringVal("web"),
  size: numberVal("18446744073709551616"),
  exact: numberVal("3.14159265358979323846264338327950288"),
  enabled: boolVal(true),
  tags: mapVal({ Name: stringVal("web"), Env: stringVal("dev").mark(Mark.Sensitive) }),
  zones: setVal([stringVal("us-east-1b"), stringVal("us-east-1a"), stringVal("us-east-1a")]),
  rules: listVal([objectVal({ port: numberVal(443), cidr: stringVal("0.0.0.0/0") })]),
  arn: unknownVal(stringType, { notNull: true, stringPrefix: "arn:aws:" }),
});
console.log("planned value:", planned.toString());

const bytes = toMsgpack(planned, type);
console.log(`msgpack (${bytes.length} bytes, marks stripped, keys sorted, unknown refined as ext 12):`);
console.log(" ", hex(bytes));
const back = fromMsgpack(bytes, type);
console.log("decoded:", back.toString());
console.log("round trip equal (ignoring marks):", back.rawEquals(planned.unmarkDeep().value));

const known = back.getAttr("arn").isKnown() ? back : objectVal({ ...back.attributes(), arn: stringVal("arn:aws:ec2:us-east-1:123456789012:vpc/vpc-1") });
const json = toJson(known, type);
console.log("JSON as go-cty writes it:", json);
console.log("JSON round trip equal:", fromJson(json, type).rawEquals(known));
try {
  toJson(back, type);
} catch (e) {
  console.log("JSON cannot hold unknowns, as in go-cty:", `[${e.code}] ${e.message}`);
}
try {
  fromMsgpack(Uint8Array.from([0x81, 0xa4, 0x6e, 0x61, 0x6d, 0x65, 0x01]), objectType({ name: stringType }));
} catch (e) {
  console.log("bad input gets a typed error with its path:", `[${e.code}] ${e.message}`);
}
