import { Code, ConnectError } from "@connectrpc/connect";
import { errorFromCall, type CallErrorContext } from "./call-error.js";
import { transportError } from "@magma/provider-api";
import { pluginExited, type PluginExitStatus } from "./plugin-exited.js";

function running(): CallErrorContext {
  return { exited: new Promise<PluginExitStatus>(() => {}), exitError: () => undefined };
}
function dead(): CallErrorContext {
  const status = { exitCode: 2, signal: null };
  return {
    exited: Promise.resolve(status),
    exitError: () => pluginExited({ ...status, stderrTail: "tail", panicExcerpt: "panic: x" }, "unexpectedly"),
  };
}

describe("errorFromCall", () => {
  test.each([
    [Code.Canceled, "canceled"],
    [Code.DeadlineExceeded, "deadline_exceeded"],
    [Code.Unavailable, "transport"],
    [Code.Internal, "transport"],
    [Code.Unimplemented, "transport"],
  ])("gRPC %s from a running plugin → %s", async (code, expected) => {
    const e = await errorFromCall(new ConnectError("boom", code), running(), "tfplugin5.Provider/GetSchema");
    expect(e.code).toBe(expected);
    expect(e.message).toMatch(/tfplugin5.Provider\/GetSchema/);
  });

  test("the gRPC code name is kept for transport errors", async () => {
    const e = await errorFromCall(new ConnectError("nope", Code.Unimplemented), running(), "m");
    expect(e.detail).toEqual({ code: "transport", grpcCode: "Unimplemented" });
  });

  test("UNAVAILABLE from a dead plugin → plugin_exited with its details", async () => {
    const e = await errorFromCall(new ConnectError("Connection dropped", Code.Unavailable), dead(), "tfplugin5.Provider/ApplyResourceChange");
    expect(e.code).toBe("plugin_exited");
    expect(e.message).toBe(
      "[plugin_exited] plugin exited and failed to respond to the tfplugin5.Provider/ApplyResourceChange call: exit code 2 (the plugin crashed): panic: x",
    );
    expect(e.detail).toEqual({ code: "plugin_exited", exitCode: 2, signal: null, stderrTail: "tail", panicExcerpt: "panic: x" });
    expect(e.cause).toBeInstanceOf(ConnectError);
  });

  test.each([Code.Canceled, Code.Aborted, Code.Internal, Code.Unknown])(
    "%s from a plugin that dies under the call → plugin_exited naming the binary with the stderr tail",
    async (code) => {
      const status = { exitCode: null, signal: "SIGKILL" };
      let exited = false;
      const ctx: CallErrorContext = {
        binary: "terraform-provider-x",
        exited: new Promise((r) => setTimeout(() => ((exited = true), r(status)), 50)),
        exitError: () => (exited ? pluginExited({ ...status, stderrTail: "a\n\n[WARN] b\nc", panicExcerpt: undefined }, "unexpectedly") : undefined),
      };
      const e = await errorFromCall(new ConnectError("stream closed", code), ctx, "tfplugin6.Provider/ReadDataSource");
      expect(e.message).toBe(
        "[plugin_exited] plugin exited and failed to respond to the tfplugin6.Provider/ReadDataSource call: killed by signal SIGKILL [terraform-provider-x]: a | [WARN] b | c",
      );
    },
  );

  test("a ProviderError passes through unchanged; non-Connect errors become transport", async () => {
    const original = transportError("x");
    expect(await errorFromCall(original, running(), "m")).toBe(original);
    expect((await errorFromCall(new Error("socket hang up"), running(), "m")).code).toBe("transport");
  });
});
