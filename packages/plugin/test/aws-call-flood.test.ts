/**
 * Issue 14, defect 2: with 12,000+ concurrent calls on one hashicorp/aws connection, calls
 * never settled (even after close()) or failed with NGHTTP2_INTERNAL_ERROR. The call gate
 * bounds the calls sent at once (default 128), queues the rest, and settles every call
 * when the connection is closed (`canceled`) or the process dies (`plugin_exited`).
 * The cheap call is ReadDataSource of aws_partition (no network).
 */
import { configValue, isProviderError } from "@magma/provider-api";
import { dialConfiguredProvider, type LiveProvider } from "../src/dial-provider.js";
import type { ProviderConn } from "../src/provider-conn.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 600_000;
const CALLS = 20_000;

interface Outcome {
  readonly ok: number;
  /** Rejections by code and message (messages cut to their first 120 characters). */
  readonly failed: Map<string, number>;
}

/** Starts `n` reads at once; `settled` resolves when every one has settled (or rejects after 300 s, naming how many hang). */
function flood(live: LiveProvider, n: number): { readonly settled: Promise<Outcome> } {
  const entry = live.schema.dataSources.get("aws_partition")!;
  const config = configValue(entry.block, {});
  let ok = 0;
  let done = 0;
  const failed = new Map<string, number>();
  const calls = Array.from({ length: n }, () =>
    live.provider.readDataSource("aws_partition", config).then(
      () => {
        ok++;
        done++;
      },
      (e: unknown) => {
        const key = isProviderError(e) ? `${e.code}: ${e.message.slice(0, 120)}` : `not a ProviderError: ${String(e)}`;
        failed.set(key, (failed.get(key) ?? 0) + 1);
        done++;
      },
    ),
  );
  const settled = new Promise<Outcome>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${n - done} of ${n} calls never settled`)), 300_000);
    void Promise.all(calls).then(() => {
      clearTimeout(t);
      resolve({ ok, failed });
    });
  });
  return { settled };
}

async function open(): Promise<LiveProvider> {
  return dialConfiguredProvider({ binary: AWS_BINARY, config: AWS_OFFLINE_CONFIG });
}

d("20,000 concurrent calls on one hashicorp/aws connection", () => {
  test(
    "all settle and succeed; none is left in flight",
    async () => {
      const live = await open();
      try {
        const { settled } = flood(live, CALLS);
        expect((live.provider as ProviderConn).inflight).toBe(CALLS);
        const r = await settled;
        expect([...r.failed]).toEqual([]);
        expect(r.ok).toBe(CALLS);
        expect((live.provider as ProviderConn).inflight).toBe(0);
      } finally {
        await live.close();
      }
    },
    LONG,
  );

  test(
    "close() under 20,000 pending calls: every call settles, the ones cut off with canceled; later calls are refused clearly",
    async () => {
      const live = await open();
      const { settled } = flood(live, CALLS);
      await new Promise((r) => setTimeout(r, 500));
      await live.close();
      const r = await settled;
      expect(r.ok + [...r.failed.values()].reduce((a, b) => a + b, 0)).toBe(CALLS);
      expect(r.ok).toBeLessThan(CALLS);
      const codes = new Set([...r.failed.keys()].map((k) => k.split(":")[0]));
      expect([...codes]).toEqual(["canceled"]);
      for (const k of r.failed.keys()) expect(k).not.toMatch(/context canceled|exit code/);
      expect((live.provider as ProviderConn).inflight).toBe(0);

      const after = await live.provider.readDataSource("aws_partition", configValue(live.schema.dataSources.get("aws_partition")!.block, {})).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isProviderError(after) && after.code).toBe("canceled");
      expect(String(after)).toMatch(/the ReadDataSource call was not sent: the provider \[terraform-provider-aws[^\]]*\] is closed/);
      expect(String(after)).not.toMatch(/exit code|plugin exited/);
    },
    LONG,
  );

  test(
    "the provider SIGKILLed under 20,000 pending calls: every call settles, the failures with plugin_exited",
    async () => {
      const live = await open();
      try {
        const { settled } = flood(live, CALLS);
        await new Promise((r) => setTimeout(r, 500));
        process.kill(live.pid!, "SIGKILL");
        const r = await settled;
        expect(r.ok).toBeLessThan(CALLS);
        const codes = new Set([...r.failed.keys()].map((k) => k.split(":")[0]));
        expect([...codes]).toEqual(["plugin_exited"]);
        expect((live.provider as ProviderConn).inflight).toBe(0);
      } finally {
        await live.close();
      }
    },
    LONG,
  );
});
