import { isProviderError } from "@magma/provider-api";
import { parseReattachProviders } from "./reattach.js";

describe("parseReattachProviders", () => {
  test("parses the debug-mode description", () => {
    const json =
      '{"registry.terraform.io/hashicorp/aws":{"Protocol":"grpc","ProtocolVersion":5,"Pid":123,"Test":true,"Addr":{"Network":"unix","String":"/tmp/plugin1"}},' +
      '"example.com/x/y":{"ProtocolVersion":0,"Pid":7,"Addr":{"Network":"tcp","String":"127.0.0.1:10001"}}}';
    expect(parseReattachProviders(json)).toEqual({
      "registry.terraform.io/hashicorp/aws": {
        protocol: "grpc",
        protocolVersion: 5,
        pid: 123,
        test: true,
        network: "unix",
        address: "/tmp/plugin1",
      },
      "example.com/x/y": { protocol: "grpc", protocolVersion: 5, pid: 7, test: false, network: "tcp", address: "127.0.0.1:10001" },
    });
  });

  test.each([
    ["not json", /not valid JSON/],
    ["[]", /must be a JSON object/],
    ['{"p":1}', /\["p"\]: must be an object/],
    ['{"p":{"Protocol":"netrpc","Pid":1,"Addr":{"Network":"unix","String":"/s"}}}', /Protocol "netrpc"/],
    ['{"p":{"ProtocolVersion":-1,"Pid":1,"Addr":{"Network":"unix","String":"/s"}}}', /ProtocolVersion/],
    ['{"p":{"Pid":"1","Addr":{"Network":"unix","String":"/s"}}}', /Pid must be a positive integer/],
    ['{"p":{"Pid":1,"Test":"yes","Addr":{"Network":"unix","String":"/s"}}}', /Test must be a boolean/],
    ['{"p":{"Pid":1}}', /Addr must be an object/],
    ['{"p":{"Pid":1,"Addr":{"Network":"udp","String":"/s"}}}', /Addr.Network must be unix or tcp/],
    ['{"p":{"Pid":1,"Addr":{"Network":"unix","String":""}}}', /Addr.String/],
  ])("rejects %s", (json, message) => {
    let error: unknown;
    try {
      parseReattachProviders(json);
    } catch (e) {
      error = e;
    }
    expect(isProviderError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^\[handshake_failed\] /);
    expect((error as Error).message).toMatch(message);
  });
});
