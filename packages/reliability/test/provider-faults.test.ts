// Item 1 — provider faults, each against the fault-injecting provider served with
// @magma/provider-server: the documented error code, a message naming the binary with the
// stderr tail or panic excerpt, and afterwards no process and no private socket directory.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { nullVal } from "@magma/cty";
import { configValue, dialConfiguredProvider, dialProvider, type LiveProvider } from "@magma/plugin";
import { FaultMode, FaultOperation } from "../src/fault-mode.js";
import { faultDataType, faultThingType } from "../src/fault-provider.js";
import { faultWorkspace, isGone, readRecord, rejection, waitUntil, type FaultEvent } from "./support.js";

let ws: ReturnType<typeof faultWorkspace>;
let n = 0;
beforeAll(() => {
  ws = faultWorkspace();
});
afterAll(() => ws.cleanup());

/** Dial options for a fault mode, with a fresh record file. */
function faultOptions(mode: string, op?: string, extra: Record<string, unknown> = {}) {
  const record = join(ws.dir, `record-${++n}.jsonl`);
  return {
    record,
    options: {
      binary: ws.binary,
      env: { ...process.env, FAULT_MODE: mode, FAULT_OP: op ?? "", FAULT_RECORD: record },
      schemaCacheDir: false as const,
      config: { access_key: "AK", secret_key: "not-a-real-secret" },
      ...extra,
    },
  };
}

/** The provider process's pid and private socket directory, from its recorded environment. */
function started(record: string): { pid: number; socketDir: string } {
  const env = readRecord(record).find((e) => e.event === "env") as FaultEvent;
  return { pid: env.pid, socketDir: env.env!["PLUGIN_UNIX_SOCKET_DIR"]! };
}

/** Afterwards: no provider process, no socket directory. */
async function expectNothingLeft(record: string): Promise<void> {
  const { pid, socketDir } = started(record);
  expect(await waitUntil(() => isGone(pid))).toBe(true);
  expect(await waitUntil(() => !existsSync(socketDir))).toBe(true);
}

async function withLive<T>(live: LiveProvider, fn: (live: LiveProvider) => Promise<T>): Promise<T> {
  try {
    return await fn(live);
  } finally {
    await live.close();
  }
}

function dataConfig(live: LiveProvider) {
  return configValue(live.schema.dataSources.get(faultDataType)!.block, { name: "x" });
}

describe("faults inside a call", () => {
  test("SIGKILL mid-call (apply): plugin_exited with signal SIGKILL and the stderr tail, naming the binary", async () => {
    const { record, options } = faultOptions(FaultMode.Sigkill, FaultOperation.ApplyResourceChange);
    const live = await dialConfiguredProvider(options);
    const e = await withLive(live, async ({ provider, schema }) => {
      const entry = schema.resources.get(faultThingType)!;
      const cfg = configValue(entry.block, { name: "a" });
      const plan = await provider.planResourceChange(faultThingType, nullVal(entry.type), cfg, cfg);
      return rejection(() => provider.applyResourceChange(faultThingType, nullVal(entry.type), plan.plannedState, cfg));
    });
    expect(e.code).toBe("plugin_exited");
    expect(e.message).toMatch(/^\[plugin_exited\] plugin exited and failed to respond to the ApplyResourceChange call: killed by signal SIGKILL \[terraform-provider-fault\]: .*SIGKILL during applyResourceChange/);
    expect(e.detail).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(e.detail!["stderrTail"]).toMatch(/\[WARN\] fault provider: SIGKILL during applyResourceChange$/);
    await expectNothingLeft(record);
  });

  test.each([FaultOperation.Configure, FaultOperation.ReadDataSource, FaultOperation.GetSchema])(
    "panic during %s: plugin_exited, exit code 2, the panic excerpt in detail and message",
    async (op) => {
      const { record, options } = faultOptions(FaultMode.Panic, op);
      const e = await rejection(async () => {
        const live = await dialConfiguredProvider(options);
        await withLive(live, (l) => l.provider.readDataSource(faultDataType, dataConfig(l)));
      });
      expect(e.code).toBe("plugin_exited");
      expect(e.message).toMatch(new RegExp(`exit code 2 \\(the plugin crashed\\) \\[terraform-provider-fault\\]: panic: fault injected during ${op}$`));
      expect(e.detail).toMatchObject({ exitCode: 2, signal: null });
      expect(e.detail!["panicExcerpt"]).toBe(
        `panic: fault injected during ${op}\n\ngoroutine 42 [running]:\nmain.(*faultProvider).${op}(...)\n\t/fault/provider.go:42 +0x1d\nmain.main()\n\t/fault/main.go:10 +0x25`,
      );
      await expectNothingLeft(record);
    },
  );

  test.each([
    ["an AbortSignal", "canceled", /^\[canceled\] the ReadDataSource call was canceled \[terraform-provider-fault[^\]]*\]$/],
    ["callTimeoutMs", "deadline_exceeded", /^\[deadline_exceeded\] the ReadDataSource call did not finish within 1000 ms \[terraform-provider-fault[^\]]*\]$/],
  ])("a hanging call ended by %s: %s, only that call's stream is cancelled (no StopProvider); stop() is the explicit provider-wide action; the provider stays usable", async (how, code, message) => {
    const { record, options } = faultOptions(FaultMode.Hang, FaultOperation.ReadDataSource, how === "callTimeoutMs" ? { callTimeoutMs: 1000 } : {});
    const live = await dialConfiguredProvider(options);
    await withLive(live, async (l) => {
      const controller = new AbortController();
      const call = rejection(() => l.provider.readDataSource(faultDataType, dataConfig(l), how === "callTimeoutMs" ? undefined : { signal: controller.signal }));
      expect(await waitUntil(() => readRecord(record).some((e) => e.event === "hang:readDataSource"))).toBe(true);
      controller.abort();
      const e = await call;
      expect(e.code).toBe(code);
      expect(e.message).toMatch(message);
      // Cancelling one call must not stop the provider (SDKv2 would fail every other call in flight).
      await new Promise((r) => setTimeout(r, 500));
      expect(readRecord(record).map((x) => x.event)).not.toContain("stop-received");
      // The hang ignores the call's own cancellation: it ends only because StopProvider arrives, sent by stop().
      await l.stop();
      expect(await waitUntil(() => readRecord(record).some((x) => x.event === "returned:readDataSource"))).toBe(true);
      const events = readRecord(record).map((x) => x.event);
      expect(events.indexOf("stop-received")).toBeGreaterThan(events.indexOf("hang:readDataSource"));
      expect(events.indexOf("returned:readDataSource")).toBeGreaterThan(events.indexOf("stop-received"));
      await expect(l.provider.importResourceState(faultThingType, "thing-b")).resolves.not.toBeNull();
    });
    await expectNothingLeft(record);
  });
});

test("stopSignal given to dialProvider is the provider-wide stop: aborting it sends StopProvider, which ends a hanging call", async () => {
  const stop = new AbortController();
  const { record, options } = faultOptions(FaultMode.Hang, FaultOperation.ReadDataSource, { stopSignal: stop.signal });
  const live = await dialConfiguredProvider(options);
  await withLive(live, async (l) => {
    const call = l.provider.readDataSource(faultDataType, dataConfig(l)).then(
      () => "returned",
      (e: unknown) => String(e),
    );
    expect(await waitUntil(() => readRecord(record).some((e) => e.event === "hang:readDataSource"))).toBe(true);
    stop.abort();
    expect(await waitUntil(() => readRecord(record).some((x) => x.event === "stop-received"))).toBe(true);
    expect(await waitUntil(() => readRecord(record).some((x) => x.event === "returned:readDataSource"))).toBe(true);
    // The provider answers the stopped call itself (as SDKv2's "context canceled").
    expect(await call).toBe("ProviderError: [diagnostics] read of data source fault_data failed: error: Operation canceled: readDataSource was canceled");
  });
  await expectNothingLeft(record);
});

describe("faults before or at the handshake", () => {
  test("exit before the handshake (the provider expects another magic cookie): plugin_exited, exit code 1, go-plugin's text", async () => {
    const { record, options } = faultOptions(FaultMode.WrongCookie);
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("plugin_exited");
    expect(e.message).toMatch(/^\[plugin_exited\] plugin exited before we could connect \(no handshake line on stdout\): exit code 1 \[terraform-provider-fault\]: This binary is a plugin/);
    expect(e.detail).toMatchObject({ exitCode: 1, signal: null });
    expect(e.detail!["stderrTail"]).toMatch(/^This binary is a plugin. These are not meant to be executed directly./);
    await expectNothingLeft(record);
  });

  test("garbage on stdout before the handshake: handshake_failed quoting the line and naming the binary", async () => {
    const { record, options } = faultOptions(FaultMode.GarbageStdout);
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("handshake_failed");
    expect(e.message).toMatch(/Unrecognized remote plugin message: "Starting the fault provider \(this line should not be here\)".*\[terraform-provider-fault\]$/);
    expect(e.detail).toMatchObject({ line: "Starting the fault provider (this line should not be here)" });
    await expectNothingLeft(record);
  });

  test("extra lines (one of 200 kB) on stdout after the handshake are drained and discarded: the provider works", async () => {
    const { record, options } = faultOptions(FaultMode.ExtraStdout);
    const live = await dialConfiguredProvider(options);
    const r = await withLive(live, (l) => l.provider.readDataSource(faultDataType, dataConfig(l)));
    expect(r.state.getAttr("name").asString()).toBe("x");
    await expectNothingLeft(record);
  });

  test("a provider that speaks only protocol 4: protocol_mismatch in go-plugin's words", async () => {
    const { record, options } = faultOptions(FaultMode.Protocol4);
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("protocol_mismatch");
    expect(e.message).toBe("[protocol_mismatch] incompatible API version with plugin. Plugin version: 4, Client versions: [5 6]");
    await expectNothingLeft(record);
  });

  test("offering only a version the provider lacks (6 only, provider answers 5): protocol_mismatch", async () => {
    const { record, options } = faultOptions(FaultMode.Protocol4, undefined, { protocolVersions: [6] });
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("protocol_mismatch");
    await expectNothingLeft(record);
  });

  test("no handshake within startTimeoutMs: deadline_exceeded naming the binary", async () => {
    const { record, options } = faultOptions(FaultMode.NoHandshake, undefined, { startTimeoutMs: 1500 });
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("deadline_exceeded");
    expect(e.message).toBe("[deadline_exceeded] timeout while waiting for the plugin to start (no handshake within 1500 ms) [terraform-provider-fault]");
    await expectNothingLeft(record);
  });

  test("the socket removed before we connect: transport naming the socket and the binary, no hang", async () => {
    const { record, options } = faultOptions(FaultMode.DeleteSocket);
    const e = await rejection(() => dialProvider(options));
    expect(e.code).toBe("transport");
    expect(e.message).toMatch(/cannot connect to plugin at unix:.*magma-plugin-.*ENOENT.*\[terraform-provider-fault\]$/);
    await expectNothingLeft(record);
  });

  test("an AbortSignal during the launch: canceled", async () => {
    // Aborted once the provider process is running and before any handshake (it never sends
    // one): a fixed timer fired before the process had started on a loaded CI machine.
    const controller = new AbortController();
    const { record, options } = faultOptions(FaultMode.NoHandshake, undefined, { signal: controller.signal });
    const dialing = rejection(() => dialProvider(options));
    expect(await waitUntil(() => readRecord(record).some((x) => x.event === "env"))).toBe(true);
    controller.abort();
    const e = await dialing;
    expect(e.code).toBe("canceled");
    await expectNothingLeft(record);
  });
});
