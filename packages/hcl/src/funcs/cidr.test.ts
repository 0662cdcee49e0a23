// Expected values from terraform 1.11.4 (see testdata/corpus/cidr.json).
import { numberVal, stringVal } from "@magma/cty";
import { call, callError } from "./test-support/call.js";

const s = stringVal;
const n = numberVal;

describe("IP network functions", () => {
  it("computes hosts, netmasks and subnets", () => {
    expect(call("cidrhost", s("10.12.112.0/20"), n(-1)).asString()).toBe("10.12.127.255");
    expect(call("cidrhost", s("fd00:fd12:3456:7890:00a2::/72"), n(34)).asString()).toBe("fd00:fd12:3456:7890::22");
    expect(call("cidrhost", s("010.0.0.0/8"), n(1)).asString()).toBe("10.0.0.1");
    expect(call("cidrnetmask", s("172.16.0.0/12")).asString()).toBe("255.240.0.0");
    expect(call("cidrsubnet", s("fd00:fd12:3456:7890::/56"), n(16), n(162)).asString()).toBe("fd00:fd12:3456:7800:a200::/72");
    expect(call("cidrsubnets", s("10.1.0.0/16"), n(4), n(4), n(8), n(4)).elements().map((e) => e.asString())).toEqual([
      "10.1.0.0/20",
      "10.1.16.0/20",
      "10.1.32.0/24",
      "10.1.48.0/20",
    ]);
  });

  it("reports go-cidr's errors", () => {
    expect(callError("cidrhost", s("10.12.112.0/20"), n(4096))).toMatchObject({ message: "prefix of 20 does not accommodate a host numbered 4096" });
    expect(callError("cidrsubnet", s("10.1.2.0/24"), n(9), n(0))).toMatchObject({ message: "insufficient address space to extend prefix of 24 by 9" });
    expect(callError("cidrnetmask", s("x"))).toMatchObject({ message: "invalid CIDR expression: invalid CIDR address: x" });
  });
});
