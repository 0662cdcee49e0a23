import { parseHandshakeLine, splitTcpAddress } from "./handshake.js";
import { isProviderError, type AnyProviderError } from "@magma/provider-api";

// A real-looking DER prefix: SEQUENCE, long-form length, padded to > 50 base64 chars.
const DER = Buffer.concat([Buffer.from([0x30, 0x82, 0x02, 0x10]), Buffer.alloc(120, 7)]);
const CERT = DER.toString("base64").replace(/=+$/, "");

function failure(line: string, offered: readonly number[] = [5, 6]): AnyProviderError {
  try {
    parseHandshakeLine(line, offered);
  } catch (e) {
    if (isProviderError(e)) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(line)} to fail`);
}

describe("parseHandshakeLine", () => {
  test.each([
    ["1|5|unix|/tmp/plugin2853885929|grpc|", 5, "unix", "/tmp/plugin2853885929", false],
    ["1|6|unix|/tmp/plugin1|grpc||true", 6, "unix", "/tmp/plugin1", true],
    ["1|5|tcp|127.0.0.1:10001|grpc|", 5, "tcp", "127.0.0.1:10001", false],
    ["1|5|tcp|[::1]:10001|grpc|", 5, "tcp", "[::1]:10001", false],
    ["  1|5|unix|/tmp/p|grpc|\r\n", 5, "unix", "/tmp/p", false],
    ["1|5|unix|/tmp/p|grpc", 5, "unix", "/tmp/p", false],
    ["1|5|unix|/tmp/p|grpc||false", 5, "unix", "/tmp/p", false],
  ])("accepts %j", (line, version, network, address, multiplexed) => {
    const h = parseHandshakeLine(line, [5, 6]);
    expect(h).toEqual({
      coreVersion: 1,
      protocolVersion: version,
      network,
      address,
      protocol: "grpc",
      serverCertificate: undefined,
      multiplexed,
    });
  });

  test("decodes an unpadded base64 DER certificate longer than 50 characters", () => {
    expect(CERT.length).toBeGreaterThan(50);
    const h = parseHandshakeLine(`1|5|unix|/tmp/p|grpc|${CERT}`, [5]);
    expect(Buffer.from(h.serverCertificate!)).toEqual(DER);
  });

  test("accepts padded base64 too", () => {
    const h = parseHandshakeLine(`1|5|unix|/tmp/p|grpc|${DER.toString("base64")}`, [5]);
    expect(Buffer.from(h.serverCertificate!)).toEqual(DER);
  });

  test("ignores a certificate field of 50 characters or fewer, as go-plugin does", () => {
    expect(parseHandshakeLine(`1|5|unix|/tmp/p|grpc|${"A".repeat(50)}`, [5]).serverCertificate).toBeUndefined();
  });

  test.each([
    ["", /Unrecognized remote plugin message/],
    ["hello world", /Unrecognized remote plugin message/],
    ["Starting provider...", /Unrecognized remote plugin message/],
    ["1|5|unix", /Unrecognized remote plugin message/],
    ["1|5|unix|/tmp/p", /missing PROTO field/],
    ["2|5|unix|/tmp/p|grpc|", /core protocol version "2" \(field 1/],
    ["x|5|unix|/tmp/p|grpc|", /core protocol version "x"/],
    ["1|five|unix|/tmp/p|grpc|", /invalid protocol version "five" \(field 2/],
    ["1|-5|unix|/tmp/p|grpc|", /invalid protocol version "-5"/],
    ["1||unix|/tmp/p|grpc|", /invalid protocol version ""/],
    ["1|5|udp|/tmp/p|grpc|", /unsupported network "udp" \(field 3/],
    ["1|5|unix||grpc|", /empty address \(field 4\)/],
    ["1|5|tcp|127.0.0.1|grpc|", /not host:port/],
    ["1|5|tcp|127.0.0.1:0|grpc|", /invalid tcp port "0"/],
    ["1|5|tcp|127.0.0.1:70000|grpc|", /invalid tcp port "70000"/],
    ["1|5|tcp|127.0.0.1:x|grpc|", /invalid tcp port "x"/],
    ["1|5|tcp|[::1:80|grpc|", /invalid tcp host/],
    ["1|5|unix|/tmp/p|netrpc|", /net\/rpc \(field 5\)/],
    ["1|5|unix|/tmp/p|http|", /unsupported RPC protocol "http"/],
    ["1|5|unix|/tmp/p|grpc||maybe", /invalid multiplexing flag "maybe" \(field 7/],
    ["1|5|unix|/tmp/p|grpc||true|extra", /too many fields/],
    [`1|5|unix|/tmp/p|grpc|${"*".repeat(60)}`, /not standard base64 \(field 6\)/],
    [`1|5|unix|/tmp/p|grpc|${Buffer.alloc(60, 1).toString("base64")}`, /not a DER certificate/],
  ])("rejects %j as handshake_failed", (line, message) => {
    const e = failure(line);
    expect(e.code).toBe("handshake_failed");
    expect(e.message).toMatch(/^\[handshake_failed\] /);
    expect(e.message).toMatch(message);
    expect(e.detail).toMatchObject({ code: "handshake_failed", line: line.trim() });
  });

  test("a version we did not offer is protocol_mismatch, in go-plugin's words", () => {
    const e = failure("1|5|unix|/tmp/p|grpc|", [6]);
    expect(e.code).toBe("protocol_mismatch");
    expect(e.message).toBe(
      "[protocol_mismatch] incompatible API version with plugin. Plugin version: 5, Client versions: [6]",
    );
    expect(e.detail).toEqual({ code: "protocol_mismatch", pluginVersion: 5, clientVersions: [6] });
  });

  test("field errors are reported before the version check", () => {
    expect(failure("1|4|udp|/tmp/p|grpc|").code).toBe("handshake_failed");
  });
});

describe("splitTcpAddress", () => {
  test.each([
    ["127.0.0.1:10001", "127.0.0.1", 10001],
    ["[::1]:443", "::1", 443],
  ])("%s", (addr, host, port) => {
    expect(splitTcpAddress(addr)).toEqual({ host, port });
  });
});
