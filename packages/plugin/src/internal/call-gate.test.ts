import type { CallOptions } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { isProviderError } from "@magma/provider-api";
import { CallGate } from "./call-gate.js";
import type { CallErrorContext } from "./error-map/call-error.js";
import { pluginExited, type PluginExitStatus } from "./error-map/plugin-exited.js";

/** A plugin process whose exit the test decides. */
function processContext(): CallErrorContext & { exit(status: PluginExitStatus): void } {
  let status: PluginExitStatus | undefined;
  let resolve!: (s: PluginExitStatus) => void;
  const exited = new Promise<PluginExitStatus>((r) => (resolve = r));
  return {
    exited,
    binary: "terraform-provider-test",
    exitError: () =>
      status === undefined ? undefined : pluginExited({ ...status, stderrTail: "", panicExcerpt: undefined }, "unexpectedly", undefined, "terraform-provider-test"),
    exit(s) {
      status = s;
      resolve(s);
    },
  };
}

/** An RPC that answers when told to, or fails as a reset stream when its signal aborts. */
function rpc(): { fn: (o: CallOptions) => Promise<string>; started: number; answer(v: string): void; seenSignals: (AbortSignal | undefined)[] } {
  const waiting: ((v: string) => void)[] = [];
  const self = {
    started: 0,
    seenSignals: [] as (AbortSignal | undefined)[],
    fn: (o: CallOptions): Promise<string> => {
      self.started++;
      self.seenSignals.push(o.signal);
      return new Promise<string>((resolve, reject) => {
        waiting.push(resolve);
        o.signal?.addEventListener("abort", () => {
          waiting.splice(waiting.indexOf(resolve), 1);
          reject(new ConnectError("stream reset", Code.Canceled));
        });
      });
    },
    answer(v: string) {
      waiting.shift()?.(v);
    },
  };
  return self;
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

async function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    (v) => `ok:${String(v)}`,
    (e: unknown) => (isProviderError(e) ? `${e.code}:${e.message}` : `other:${String(e)}`),
  );
}

describe("CallGate", () => {
  test("sends at most maxConcurrentCalls at once; the rest wait and start in arrival order", async () => {
    const gate = new CallGate(processContext(), { maxConcurrentCalls: 2 });
    const r = rpc();
    const results: string[] = [];
    const calls = [1, 2, 3, 4].map((i) => gate.run(`M${i}`, undefined, r.fn).then((v) => results.push(v)));
    await tick();
    expect(r.started).toBe(2);
    expect(gate.active).toBe(2);
    expect(gate.queued).toBe(2);
    r.answer("a");
    await tick();
    expect(r.started).toBe(3);
    for (const v of ["b", "c", "d"]) {
      r.answer(v);
      await tick();
    }
    await Promise.all(calls);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(gate.active + gate.queued).toBe(0);
  });

  test("an AbortSignal cancels only its own call: while queued it is withdrawn; while sent only its stream is aborted", async () => {
    const gate = new CallGate(processContext(), { maxConcurrentCalls: 1 });
    const r = rpc();
    const first = new AbortController();
    const second = new AbortController();
    const a = outcome(gate.run("A", first.signal, r.fn));
    const b = outcome(gate.run("B", second.signal, r.fn));
    const c = outcome(gate.run("C", undefined, r.fn));
    second.abort();
    expect(await b).toBe("canceled:[canceled] the B call was canceled while it waited to be sent");
    first.abort();
    expect(await a).toBe("canceled:[canceled] the A call was canceled");
    expect(r.seenSignals[0]?.aborted).toBe(true);
    await tick();
    expect(r.started).toBe(2); // C was sent; B never was
    r.answer("c");
    expect(await c).toBe("ok:c");
  });

  test("callTimeoutMs counts from the call's start, queueing included", async () => {
    const gate = new CallGate(processContext(), { maxConcurrentCalls: 1, callTimeoutMs: 50 });
    const r = rpc();
    const a = outcome(gate.run("A", undefined, r.fn));
    const b = outcome(gate.run("B", undefined, r.fn));
    expect(await a).toBe("deadline_exceeded:[deadline_exceeded] the A call did not finish within 50 ms");
    expect(await b).toMatch(/^deadline_exceeded:\[deadline_exceeded\] the B call did not (start|finish) within 50 ms$/);
  });

  test("closing(): queued calls are canceled, new ones refused; closed(): calls still unanswered are canceled", async () => {
    const gate = new CallGate(processContext(), { maxConcurrentCalls: 1, label: "terraform-provider-test" });
    const r = rpc();
    const a = outcome(gate.run("A", undefined, r.fn));
    const b = outcome(gate.run("B", undefined, r.fn));
    gate.closing();
    expect(await b).toBe("canceled:[canceled] the B call was canceled before it was sent: the provider [terraform-provider-test] is being closed");
    expect(await outcome(gate.run("C", undefined, r.fn))).toBe("canceled:[canceled] the C call was not sent: the provider [terraform-provider-test] is closed");
    gate.closed();
    expect(await a).toBe("canceled:[canceled] the A call was canceled: the provider [terraform-provider-test] was closed before it answered");
    expect(gate.active + gate.queued).toBe(0);
  });

  test("a reply carrying only \"context canceled\" errors while closing is canceled; one with a new state is kept", async () => {
    const gate = new CallGate(processContext());
    let answer!: (v: unknown) => void;
    const fn = (): Promise<unknown> => new Promise((r) => (answer = r));
    const diag = { severity: 1, summary: "reading: operation error: context canceled", detail: "" };
    const a = outcome(gate.run("ReadDataSource", undefined, fn));
    await tick();
    gate.closing();
    answer({ diagnostics: [diag] });
    expect(await a).toBe("canceled:[canceled] the ReadDataSource call was canceled: the provider was closed");
    const kept = { diagnostics: [diag], newState: { msgpack: new Uint8Array([0x81, 0xa1, 0x61, 0x01]), json: new Uint8Array(0) } };
    const b = gate.run("ApplyResourceChange", undefined, () => Promise.resolve(kept));
    await expect(b).rejects.toMatchObject({ code: "canceled" }); // closing: refused before it is sent
    const gate2 = new CallGate(processContext());
    const c = gate2.run("ApplyResourceChange", undefined, fn);
    await tick();
    gate2.closing();
    answer(kept);
    await expect(c).resolves.toBe(kept);
  });

  test("the process exits: queued and unanswered calls reject with plugin_exited, later calls too", async () => {
    const proc = processContext();
    const gate = new CallGate(proc, { maxConcurrentCalls: 1 });
    const r = rpc();
    const a = outcome(gate.run("A", undefined, r.fn));
    const b = outcome(gate.run("B", undefined, r.fn));
    proc.exit({ exitCode: 2, signal: null });
    expect(await b).toMatch(/^plugin_exited:\[plugin_exited\] plugin exited before the B call could be sent: exit code 2 \[terraform-provider-test\]$/);
    expect(await a).toMatch(/^plugin_exited:\[plugin_exited\] plugin exited and failed to respond to the A call: exit code 2/);
    expect(await outcome(gate.run("C", undefined, r.fn))).toMatch(/^plugin_exited:\[plugin_exited\] plugin exited before the C call could be sent/);
  });

  test("rejects a bad bound", () => {
    expect(() => new CallGate(processContext(), { maxConcurrentCalls: 0 })).toThrow(/maxConcurrentCalls must be a positive integer/);
  });
});
