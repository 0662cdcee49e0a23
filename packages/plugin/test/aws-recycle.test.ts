/**
 * Issue 14: a provider factory's `recycle` option replaces a long-lived hashicorp/aws
 * process after N calls or once its resident set exceeds M bytes, when idle; the
 * LiveProvider and its provider stay the same objects and stay configured.
 */
import { configValue } from "@magma/provider-api";
import { createProviderFactory } from "../src/provider-factory.js";
import type { LiveProvider } from "../src/dial-provider.js";
import { AWS_BINARY, AWS_OFFLINE_CONFIG, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 300_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `n` reads of aws_partition, `width` at a time; the pids that served them. */
async function reads(live: LiveProvider, n: number, width: number): Promise<Set<number>> {
  const entry = live.schema.dataSources.get("aws_partition")!;
  const config = configValue(entry.block, {});
  const pids = new Set<number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next++ < n) {
        const r = await live.provider.readDataSource("aws_partition", config);
        expect(r.state.getAttr("partition").asString()).toBe("aws");
        pids.add(live.pid!);
      }
    }),
  );
  return pids;
}

d("recycling hashicorp/aws processes", () => {
  test(
    "afterCalls: 100 — 250 reads, 8 at a time, all succeed on a configured provider; the process is replaced twice and the old ones are gone",
    async () => {
      const factory = createProviderFactory({ recycle: { afterCalls: 100 } });
      const live = await factory.open(AWS_BINARY, { config: AWS_OFFLINE_CONFIG });
      const provider = live.provider;
      const first = live.pid!;
      try {
        const pids = await reads(live, 250, 8);
        expect(live.provider).toBe(provider);
        expect(pids.size).toBe(3);
        expect(pids.has(first)).toBe(true);
        for (const pid of pids) if (pid !== live.pid) expect(alive(pid)).toBe(false);
      } finally {
        await live.close();
      }
      expect(alive(first)).toBe(false);
    },
    LONG,
  );

  test(
    "afterRssBytes: a bound below the process's size replaces it at the next idle call (checked at most once a second)",
    async () => {
      const factory = createProviderFactory({ recycle: { afterRssBytes: 1024 * 1024 } });
      const live = await factory.open(AWS_BINARY, { config: AWS_OFFLINE_CONFIG });
      const first = live.pid!;
      try {
        await reads(live, 1, 1);
        await new Promise((r) => setTimeout(r, 1_100));
        await reads(live, 1, 1);
        expect(live.pid).not.toBe(first);
        expect(alive(first)).toBe(false);
      } finally {
        await live.close();
      }
    },
    LONG,
  );

});

test("a bad recycle limit is refused when the factory is made, before anything starts", () => {
  expect(() => createProviderFactory({ recycle: { afterCalls: 0 } })).toThrow(/recycle\.afterCalls must be a positive integer, got 0/);
  expect(() => createProviderFactory({ recycle: { afterRssBytes: 1.5 } })).toThrow(/recycle\.afterRssBytes must be a positive integer, got 1\.5/);
});
