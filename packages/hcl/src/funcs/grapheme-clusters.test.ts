// The linear grapheme cluster segmentation against Intl.Segmenter (ICU) on random strings
// over characters of every Grapheme_Cluster_Break class, and against terraform 1.11.4 where
// ICU's newer Unicode differs (GB9c, Indic conjuncts: terraform's `length("क्षि")` is 2).
import { graphemeClusters } from "./grapheme-clusters.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const icu = (s: string): string[] => [...segmenter.segment(s)].map((g) => g.segment);

// No Devanagari virama + consonant sequences here: ICU (Unicode 15.1) joins them, go-textseg
// (Unicode 15.0, terraform's) does not.
const POOL = ["a", "e", "\u0301", "\u0308", "\u200d", "\u200c", "👍", "🏽", "🇩", "🇪", "\r", "\n", "\t", "\u1100", "\u1161", "\u11a8", "각", "가", "\u0e33", "ก", "\u0903", "क", "\u0600", " ", "\ufe0f", "🌈", "🏳", "\u00ad", "é", "中", "\u{1f9d1}", "\ud83d"];

function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe("graphemeClusters", () => {
  it("agrees with Intl.Segmenter on 5,000 random strings", () => {
    const rnd = random(12345);
    for (let k = 0; k < 5_000; k++) {
      let s = "";
      const n = 1 + Math.floor(rnd() * 10);
      for (let j = 0; j < n; j++) s += POOL[Math.floor(rnd() * POOL.length)]!;
      expect({ s, clusters: graphemeClusters(s) }).toEqual({ s, clusters: icu(s) });
    }
  });

  it("counts as terraform does", () => {
    expect(graphemeClusters("क्षि")).toHaveLength(2);
    expect(graphemeClusters("🇩🇪🇫")).toHaveLength(2);
    expect(graphemeClusters("👨‍👩‍👧x")).toHaveLength(2);
    expect(graphemeClusters("e\u0301x")).toEqual(["e\u0301", "x"]);
    expect(graphemeClusters("")).toEqual([]);
  });

  it("is linear: a million characters in one pass", () => {
    const s = "héllo wörld 🇩🇪🇫🇷 👨‍👩‍👧 ".repeat(40_000);
    // No timing assertion (CI is shared); the length proves the pass ran to the end.
    expect(graphemeClusters(s)).toHaveLength(40_000 * 17);
  });
});
