import { Path, nullVal, stringType, stringVal } from "@magma/cty";
import { errorDiag, warningDiag, type Diag } from "./diagnostic.js";
import {
  ProviderError,
  canceledError,
  deadlineExceededError,
  diagnosticsError,
  functionCallError,
  handshakeFailedError,
  invalidResponseError,
  isProviderError,
  isRetryable,
  noNewStateError,
  notConfiguredError,
  partiallyAppliedError,
  pluginExitedError,
  protocolMismatchError,
  providerNotFoundError,
  schemaError,
  transportError,
  unknownTypeError,
} from "./provider-error.js";

const diags = (...summaries: string[]): Diag[] => summaries.map((s) => errorDiag(s));

describe("isRetryable", () => {
  test.each<[string, unknown, boolean]>([
    ["transport without a gRPC status", transportError("socket closed"), true],
    ["transport unavailable", transportError("gone", { grpcCode: "unavailable" }), true],
    ["transport resource_exhausted", transportError("busy", { grpcCode: "resource_exhausted" }), true],
    ["transport unimplemented", transportError("no such method", { grpcCode: "unimplemented" }), false],
    ["transport invalid_argument", transportError("bad request", { grpcCode: "invalid_argument" }), false],
    ["deadline_exceeded", deadlineExceededError(), true],
    ["diagnostics: throttling", diagnosticsError(diags("Error: Throttling: Rate exceeded")), true],
    ["diagnostics: rate limit", diagnosticsError(diags("API rate limit reached")), true],
    ["diagnostics: quota", diagnosticsError(diags("Quota exceeded for VPCs")), true],
    ["diagnostics: timeout", diagnosticsError(diags("waiting for creation: timeout while waiting for state")), true],
    ["diagnostics: timed out", diagnosticsError(diags("request timed out")), true],
    ["diagnostics: HTTP 429", diagnosticsError([errorDiag("request failed", "StatusCode: 429, Too Many Requests")]), true],
    ["diagnostics: HTTP 503", diagnosticsError(diags("creating bucket: StatusCode: 503")), true],
    ["diagnostics: connection reset", diagnosticsError(diags("read tcp: connection reset by peer")), true],
    ["diagnostics: validation error", diagnosticsError(diags("Invalid CIDR block")), false],
    ["diagnostics: one throttling error and one validation error", diagnosticsError(diags("Throttling", "Invalid CIDR block")), false],
    ["diagnostics: only warnings", diagnosticsError([warningDiag("throttled")]), false],
    ["diagnostics: 4290 is not 429", diagnosticsError(diags("error code 4290")), false],
    ["partially_applied whose text mentions a timeout", partiallyAppliedError(stringVal("x"), new Uint8Array(), diags("timeout while waiting for state to become available")), false],
    ["partially_applied with throttling", partiallyAppliedError(stringVal("x"), new Uint8Array(), diags("Throttling")), false],
    ["no_new_state", noNewStateError("aws_vpc"), false],
    ["schema", schemaError("bad schema"), false],
    ["not_configured", notConfiguredError("readResource"), false],
    ["unknown_type", unknownTypeError("resource", "nope"), false],
    ["invalid_response", invalidResponseError("timeout in response text"), false],
    ["canceled", canceledError(), false],
    ["plugin_exited", pluginExitedError("crashed", { exitCode: 2, signal: null, panicExcerpt: "panic: timeout" }), false],
    ["handshake_failed", handshakeFailedError("bad line"), false],
    ["protocol_mismatch", protocolMismatchError(4, [5, 6]), false],
    ["provider_not_found", providerNotFoundError("no such file", { binary: "/x" }), false],
    ["function_error", functionCallError("f", "boom", { argument: 1 }), false],
    ["a plain Error mentioning a timeout", new Error("timeout"), false],
    ["a non-error", "ECONNRESET", false],
    ["null", null, false],
  ])("%s → %s", (_name, err, want) => {
    expect(isRetryable(err)).toBe(want);
  });
});

describe("ProviderError", () => {
  test("message is [code] text, name is ProviderError, cause kept", () => {
    const cause = new Error("root");
    const e = transportError("socket closed", { cause, grpcCode: "unavailable" });
    expect(e.message).toBe("[transport] socket closed");
    expect(e.rawMessage).toBe("socket closed");
    expect(e.name).toBe("ProviderError");
    expect(e.cause).toBe(cause);
    expect(e).toBeInstanceOf(Error);
    expect(e.detail).toEqual({ code: "transport", grpcCode: "unavailable" });
  });

  test("switch on code narrows the detail", () => {
    const state = stringVal("kept");
    const e: unknown = partiallyAppliedError(state, Uint8Array.of(1), [errorDiag("boom"), warningDiag("w")], "t");
    if (!isProviderError(e)) throw new Error("not a ProviderError");
    switch (e.code) {
      case "partially_applied":
        expect(e.detail.newState).toBe(state);
        expect([...e.detail.private]).toEqual([1]);
        expect(e.detail.diagnostics).toHaveLength(2);
        break;
      default:
        throw new Error(`unexpected ${e.code}`);
    }
  });

  test("isProviderError checks the shape, so a copy from another package instance matches", () => {
    const copy = Object.assign(new Error("[unknown_type] x"), { name: "ProviderError", code: "unknown_type", detail: { code: "unknown_type", kind: "resource", typeName: "x" } });
    expect(isProviderError(copy)).toBe(true);
    expect(isRetryable(copy)).toBe(false);
    expect(isProviderError({ ...copy, code: "no_such_code", message: "m" })).toBe(false);
    expect(isProviderError(Object.assign(new Error("m"), { name: "ProviderError", code: "schema", detail: { code: "transport" } }))).toBe(false);
    expect(isProviderError(new Error("x"))).toBe(false);
  });

  test("factories fill the detail of each code", () => {
    expect(notConfiguredError("planResourceChange").detail).toEqual({ code: "not_configured", operation: "planResourceChange" });
    expect(notConfiguredError("planResourceChange").message).toContain("planResourceChange");
    expect(unknownTypeError("data_source", "x_y").detail).toEqual({ code: "unknown_type", kind: "data_source", typeName: "x_y" });
    expect(protocolMismatchError(4, [5, 6]).detail).toEqual({ code: "protocol_mismatch", pluginVersion: 4, clientVersions: [5, 6] });
    expect(pluginExitedError("x", { exitCode: null, signal: "SIGKILL" }).detail).toEqual({ code: "plugin_exited", exitCode: null, signal: "SIGKILL", stderrTail: "", panicExcerpt: undefined });
    expect(schemaError("bad", { path: Path.root.attr("a") }).detail.path?.toString()).toBe("a");
    expect(deadlineExceededError("slow", { timeoutMs: 5 }).detail).toEqual({ code: "deadline_exceeded", timeoutMs: 5 });
    const d = diagnosticsError([errorDiag("bad value", "it is bad", Path.root.attr("tags").key("a")), warningDiag("w")], "configure");
    expect(d.message).toBe('[diagnostics] configure failed: error: bad value (at tags["a"]): it is bad');
    expect(d.detail.diagnostics).toHaveLength(2);
    expect(new ProviderError({ code: "canceled" }, "stop").code).toBe("canceled");
    expect(unknownTypeError("function", "f").message).toBe('[unknown_type] the provider has no function "f"');
    const f = functionCallError("arn_build", "argument must not be null", { argument: 4, parameter: "resource" });
    expect(f.detail).toEqual({ code: "function_error", functionName: "arn_build", text: "argument must not be null", argument: 4 });
    expect(f.message).toBe('[function_error] function "arn_build": invalid value for "resource" parameter (argument 4): argument must not be null');
    expect(functionCallError("f", "boom", { argument: 0 }).rawMessage).toBe('function "f": invalid value for the parameter (argument 0): boom');
    const g = functionCallError("arn_parse", "arn: invalid prefix");
    expect(g.detail).toEqual({ code: "function_error", functionName: "arn_parse", text: "arn: invalid prefix" });
    expect(g.rawMessage).toBe('call to function "arn_parse" failed: arn: invalid prefix');
    expect(nullVal(stringType).isNull()).toBe(true);
  });
});
