import { createMemoryProvider } from "@magma/provider-api/testing";
import type { OpenedProvider, ProviderSource } from "../provider-source.js";
import { prelaunchedProviderSource } from "./prelaunched-provider-source.js";

const SRC = "example.com/test/memory";

/** A source whose instances are named `<tag> <n>` and record opens and closes in `log`. */
function countingSource(tag: string, log: string[]): ProviderSource & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async open(source) {
      if (source !== SRC) throw new Error(`no provider ${source}`);
      const name = `${tag} ${opened.length}`;
      opened.push(name);
      log.push(`open ${name}`);
      const memory = createMemoryProvider();
      const p: OpenedProvider & { name: string } = { name, provider: memory, schema: await memory.getSchema(), stop: async () => "", close: async () => void log.push(`close ${name}`) };
      return p;
    },
  };
}

/** Lets the promise chains of a discarded instance run (its close is not awaited by the open that refused it). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

const nameOf = (p: OpenedProvider): string => (p as OpenedProvider & { name: string }).name;

describe("prelaunchedProviderSource", () => {
  it("hands the early instance to the first open of its address, and opens the others from the source", async () => {
    const log: string[] = [];
    const early = countingSource("early", log);
    const late = countingSource("late", log);
    const s = prelaunchedProviderSource(late, [[SRC, early.open(SRC)]]);
    expect(s.unclaimed).toEqual([SRC]);
    const [a, b] = await Promise.all([s.open(SRC), s.open(SRC)]);
    expect([nameOf(a), nameOf(b)].sort()).toEqual(["early 0", "late 0"]);
    expect(s.unclaimed).toEqual([]);
    await s.close();
    // What was handed out is the opener's to close.
    expect(log.filter((l) => l.startsWith("close"))).toEqual([]);
  });

  it("closes an early instance nobody opened (also one still launching), and later opens go to the source", async () => {
    const log: string[] = [];
    const early = countingSource("early", log);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = gate.then(() => early.open(SRC));
    const s = prelaunchedProviderSource(countingSource("late", log), [[SRC, slow]], { cancel: (source) => log.push(`cancel ${source}`) });
    const closing = s.close();
    release();
    await closing;
    expect(log).toEqual([`cancel ${SRC}`, "open early 0", "close early 0"]);
    expect(nameOf(await s.open(SRC))).toBe("late 0");
    await s.close();
    expect(log.filter((l) => l.startsWith("close"))).toEqual(["close early 0"]);
  });

  it("falls back to the source when the early launch failed, so the open reports the source's own error", async () => {
    const log: string[] = [];
    const failed = Promise.reject(new Error("early launch failed"));
    const s = prelaunchedProviderSource(countingSource("late", log), [[SRC, failed], ["example.com/test/none", failed]]);
    expect(nameOf(await s.open(SRC))).toBe("late 0");
    await expect(s.open("example.com/test/none")).rejects.toThrow("no provider example.com/test/none");
    await s.close();
  });

  it("closes an early instance that `accept` refuses and opens a fresh one", async () => {
    const log: string[] = [];
    const early = countingSource("early", log);
    const seen: (string | undefined)[] = [];
    const s = prelaunchedProviderSource(countingSource("late", log), [[SRC, early.open(SRC)]], {
      accept: (_source, o) => {
        seen.push(o.version);
        return o.version === "1.0.0";
      },
    });
    expect(nameOf(await s.open(SRC, { version: "~> 2.0" }))).toBe("late 0");
    expect(seen).toEqual(["~> 2.0"]);
    await s.close();
    await settle();
    expect(log).toContain("close early 0");
    expect(log).not.toContain("close late 0");
  });

  it("does not wait for an early launch once the open is canceled: the source's open (canceled) answers, the early instance is closed", async () => {
    const log: string[] = [];
    const early = countingSource("early", log);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const canceling: ProviderSource = {
      open: async (source, o) => {
        if (o?.signal?.aborted === true) throw new Error("canceled");
        return countingSource("late", log).open(source, o);
      },
    };
    const s = prelaunchedProviderSource(canceling, [[SRC, gate.then(() => early.open(SRC))]]);
    const controller = new AbortController();
    const opening = s.open(SRC, { signal: controller.signal });
    controller.abort();
    await expect(opening).rejects.toThrow("canceled");
    release();
    await s.close();
    await settle();
    expect(log).toEqual(["open early 0", "close early 0"]);
  });
});
