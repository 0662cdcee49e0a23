import { DownloadProgress } from "./download-progress.js";

/** A terminal of `columns` that keeps what is written. */
function terminal(columns = 100): { isTTY: true; columns: number; out: string[]; write: (s: string) => boolean } {
  const out: string[] = [];
  return { isTTY: true, columns, out, write: (s) => (out.push(s), true) };
}

describe("DownloadProgress", () => {
  test("one line naming every download, redrawn when one starts or ends and at most every 100 ms between", () => {
    const t = terminal();
    let now = 1000;
    const p = new DownloadProgress(t, true, () => now);
    p.update("a", "ex/a v1.0.0", 0, 16 * 1048576);
    p.update("a", "ex/a v1.0.0", 1048576, 16 * 1048576); // within 100 ms: not drawn
    p.update("b", "ex/b v2.0.0", 524288, undefined); // a new download: drawn
    now += 150;
    p.update("a", "ex/a v1.0.0", 8 * 1048576, 16 * 1048576);
    p.update("a", "ex/a v1.0.0", 16 * 1048576, 16 * 1048576); // finished: drawn without it
    p.update("b", "ex/b v2.0.0", 1048576, 1048576); // the last one: the line is erased
    expect(t.out).toEqual([
      "\r\x1b[2KDownloading ex/a v1.0.0 0.0/16.0 MiB",
      "\r\x1b[2KDownloading ex/a v1.0.0 1.0/16.0 MiB, ex/b v2.0.0 0.5 MiB",
      "\r\x1b[2KDownloading ex/a v1.0.0 8.0/16.0 MiB, ex/b v2.0.0 0.5 MiB",
      "\r\x1b[2KDownloading ex/b v2.0.0 0.5 MiB",
      "\r\x1b[2K",
    ]);
  });

  test("clear erases a drawn line once; the line is cut to the terminal's width", () => {
    const t = terminal(30);
    const p = new DownloadProgress(t, true, () => 0);
    p.clear();
    expect(t.out).toEqual([]);
    p.update("a", "registry.example.com/ns/long v1.0.0", 0, 10);
    p.clear();
    p.clear();
    expect(t.out).toEqual(["\r\x1b[2KDownloading registry.example…", "\r\x1b[2K"]);
    expect(t.out[0]!.length - "\r\x1b[2K".length).toBe(29);
  });

  test("nothing at all on a stream that is not a terminal", () => {
    const out: string[] = [];
    const p = new DownloadProgress({ write: (s: string) => out.push(s) });
    p.update("a", "x", 0, 10);
    p.clear();
    expect(out).toEqual([]);
  });
});
