import type { PluginLogEntry } from "../../plugin-logger.js";
import { LineSplitter, type SplitLine } from "./line-splitter.js";
import { StderrMonitor } from "./stderr-monitor.js";

function split(chunks: (string | Buffer)[], max = 1024): SplitLine[] {
  const lines: SplitLine[] = [];
  const s = new LineSplitter(max, (l) => lines.push(l));
  for (const c of chunks) s.push(typeof c === "string" ? Buffer.from(c) : c);
  s.end();
  return lines;
}

describe("LineSplitter", () => {
  test("joins chunks, splits on \\n, strips \\r, flushes the last line at end", () => {
    expect(split(["ab", "c\nde\r\n", "\nf"]).map((l) => l.text)).toEqual(["abc", "de", "", "f"]);
  });

  test("multi-byte characters split across chunks survive", () => {
    const bytes = Buffer.from("héllo\n");
    expect(split([bytes.subarray(0, 2), bytes.subarray(2)]).map((l) => l.text)).toEqual(["héllo"]);
  });

  test("a line over the limit keeps its first bytes and reports its full length", () => {
    const lines = split(["x".repeat(10), "y".repeat(10), "\nnext\n"], 15);
    expect(lines).toEqual([
      { text: "x".repeat(10) + "y".repeat(5), truncatedFrom: 20 },
      { text: "next", truncatedFrom: undefined },
    ]);
  });

  test("a 16 MB line fed in 64 KiB chunks is cut without holding it all", () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const lines: SplitLine[] = [];
    const s = new LineSplitter(64 * 1024, (l) => lines.push(l));
    for (let i = 0; i < 256; i++) s.push(chunk);
    s.push(Buffer.from("\nok\n"));
    expect(lines.map((l) => [l.text.length, l.truncatedFrom])).toEqual([
      [64 * 1024, 16 * 1024 * 1024],
      [2, undefined],
    ]);
  });
});

describe("StderrMonitor", () => {
  function monitor(limits = {}) {
    const entries: PluginLogEntry[] = [];
    const m = new StderrMonitor({ log: (e) => entries.push(e) }, "stderr", 42, limits);
    return { m, entries };
  }

  test("hands parsed lines to the logger with source and pid", () => {
    const { m, entries } = monitor();
    m.push(Buffer.from('{"@level":"info","@message":"hi","@module":"aws","k":1}\n[WARN] careful\nplain\n'));
    expect(entries).toEqual([
      { level: "info", message: "hi", module: "aws", fields: { k: 1 }, source: "stderr", pid: 42 },
      { level: "warn", message: "[WARN] careful", fields: {}, source: "stderr", pid: 42 },
      { level: "debug", message: "plain", fields: {}, source: "stderr", pid: 42 },
    ]);
    expect(m.tail()).toBe('{"@level":"info","@message":"hi","@module":"aws","k":1}\n[WARN] careful\nplain');
    expect(m.panicExcerpt()).toBeUndefined();
  });

  test("the tail is bounded by lines and characters", () => {
    const { m } = monitor({ tailLines: 3, tailChars: 1000 });
    for (let i = 0; i < 10; i++) m.push(Buffer.from(`line ${i}\n`));
    expect(m.tail()).toBe("line 7\nline 8\nline 9");
    const { m: m2 } = monitor({ tailLines: 100, tailChars: 20, tailLineChars: 8 });
    for (let i = 0; i < 10; i++) m2.push(Buffer.from(`line number ${i}\n`));
    expect(m2.tail().length).toBeLessThanOrEqual(20);
    expect(m2.tail().endsWith("line num…")).toBe(true);
  });

  test("a panic is captured from its first line to the end, later plain lines logged as errors", () => {
    const { m, entries } = monitor();
    m.push(Buffer.from("[INFO] fine\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x.go:1"));
    m.end();
    expect(m.panicExcerpt()).toBe("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x.go:1");
    expect(entries.map((e) => e.level)).toEqual(["info", "error", "error", "error", "error", "error"]);
  });

  test("the panic excerpt is bounded", () => {
    const { m } = monitor({ panicChars: 30 });
    m.push(Buffer.from(`fatal error: out of memory\n${"frame\n".repeat(100)}`));
    const excerpt = m.panicExcerpt()!;
    expect(excerpt.startsWith("fatal error: out of memory\nfra")).toBe(true);
    expect(excerpt.endsWith("… (truncated)")).toBe(true);
    expect(excerpt.length).toBeLessThan(60);
  });

  test("a megabyte JSON line is logged truncated, at its own level, with its length", () => {
    const { m, entries } = monitor({ maxLineBytes: 1024 });
    const big = `{"@level":"debug","@message":"HTTP response","body":"${"z".repeat(3_000_000)}"}\n`;
    m.push(Buffer.from(big));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: "debug", message: "HTTP response", truncatedFrom: big.length - 1 });
    expect(m.tail().length).toBeLessThan(5000);
  });

  test("a throwing logger does not break reading", () => {
    const m = new StderrMonitor({ log: () => { throw new Error("bad logger"); } }, "stderr");
    m.push(Buffer.from("a\nb\n"));
    expect(m.tail()).toBe("a\nb");
  });
});
