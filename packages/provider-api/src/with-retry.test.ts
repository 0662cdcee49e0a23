import { stringVal } from "@magma/cty";
import { errorDiag } from "./diagnostic.js";
import { diagnosticsError, partiallyAppliedError, transportError, isProviderError } from "./provider-error.js";
import { withRetry } from "./with-retry.js";

const throttled = () => diagnosticsError([errorDiag("ThrottlingException: Rate exceeded")]);
const invalid = () => diagnosticsError([errorDiag("invalid CIDR block")]);

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test("retries retryable errors with exponential backoff, then succeeds", async () => {
  const r = recorder();
  let calls = 0;
  const out = await withRetry(
    async (attempt) => {
      calls++;
      if (attempt < 3) throw throttled();
      return "ok";
    },
    { sleep: r.sleep, jitter: "none", initialDelayMs: 100 },
  );
  expect(out).toBe("ok");
  expect(calls).toBe(3);
  expect(r.waits).toEqual([100, 200]);
});

test("full jitter draws each delay below the backoff", async () => {
  const r = recorder();
  const randoms = [0.5, 0.25, 0.999];
  await withRetry(
    async (attempt) => {
      if (attempt < 4) throw transportError("reset", { grpcCode: "unavailable" });
      return 1;
    },
    { sleep: r.sleep, random: () => randoms.shift()!, initialDelayMs: 100, maxDelayMs: 300 },
  );
  expect(r.waits).toEqual([50, 50, 299]);
});

test("a partially applied error is never retried, even if the policy says so", async () => {
  let calls = 0;
  const err = await withRetry(
    async () => {
      calls++;
      throw partiallyAppliedError(stringVal("eipalloc-1"), new Uint8Array(), [errorDiag("timeout while waiting")]);
    },
    { retryable: () => true, sleep: async () => undefined },
  ).catch((e: unknown) => e);
  expect(calls).toBe(1);
  expect(isProviderError(err) && err.code === "partially_applied").toBe(true);
});

test("non-retryable errors are rethrown at once; the last error after maxAttempts", async () => {
  let calls = 0;
  await expect(withRetry(async () => void (calls++, (() => { throw invalid(); })()), { sleep: async () => undefined })).rejects.toMatchObject({ code: "diagnostics" });
  expect(calls).toBe(1);
  calls = 0;
  const last = await withRetry(
    async () => {
      calls++;
      throw throttled();
    },
    { maxAttempts: 3, sleep: async () => undefined },
  ).catch((e: unknown) => e);
  expect(calls).toBe(3);
  expect(isProviderError(last) && last.code === "diagnostics").toBe(true);
});

test("an abort while waiting rejects with canceled", async () => {
  const ac = new AbortController();
  const p = withRetry(
    async () => {
      throw throttled();
    },
    { signal: ac.signal, initialDelayMs: 60_000, jitter: "none" },
  );
  setTimeout(() => ac.abort(), 10);
  await expect(p).rejects.toMatchObject({ code: "canceled" });
});

test("bad maxAttempts is a RangeError", async () => {
  await expect(withRetry(async () => 1, { maxAttempts: 0 })).rejects.toThrow(RangeError);
});
