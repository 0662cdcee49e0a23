/** The closest of `options` to `given` within an edit distance of 2 (HCL's `nameSuggestion`). */
export function nameSuggestion(given: string, options: readonly string[]): string | undefined {
  for (const o of options) if (levenshtein(given, o) < 3) return o;
  return undefined;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
