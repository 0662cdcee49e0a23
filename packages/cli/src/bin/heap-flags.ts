import { setFlagsFromString } from "node:v8";

/**
 * The V8 flags the `magma` executable sets for itself, before anything else is loaded, each
 * with the pattern of the node/V8 flags by which a user makes the same choice themselves (then
 * theirs is kept). Only flags V8 reads while it runs work here (node has sized the heap and
 * started its threads when this code runs: `--max-semi-space-size` or `--v8-pool-size` set
 * at run time change nothing). Measured on case 4's plan (see packages/engine-bench's README,
 * "Memory (case 4)"):
 *
 * - `--semi-space-growth-factor=1`: the young generation keeps its initial size (node 20: two
 *   1 MiB semispaces) instead of growing to two 16 MiB semispaces, which node's malloc'd
 *   memory then follows: ~40 MiB lower.
 * - `--no-opt`: no TurboFan. A command is one short process: its optimising compiler's work
 *   (its zones, the optimised code and its deoptimisation data, compiled on V8's worker
 *   threads) cost ~11 MiB at the plan's peak and more CPU than it saved (interpreter and
 *   Sparkplug code only).
 * - `--optimize-for-size`: V8's heap sizing for small heaps (a lower old-generation limit
 *   after a full GC, so the plan's garbage is collected before the heap grows): ~4 MiB.
 *
 * @internal
 */
export const CLI_HEAP_FLAGS: readonly (readonly [flag: string, chosen: RegExp])[] = [
  ["--semi-space-growth-factor=1", /^--(max|min)[-_]semi[-_]space[-_]size\b|^--semi[-_]space[-_]growth[-_]factor\b/],
  ["--no-opt", /^--(no-)?(opt|turbofan)\b/],
  ["--optimize-for-size", /^--(no-)?optimize[-_]for[-_]size\b/],
];

/** The node options given on node's command line and in `NODE_OPTIONS`. */
function userOptions(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
}

/**
 * The flags of {@link CLI_HEAP_FLAGS} this process sets: each one unless the user gave a
 * flag making the same choice (on node's command line or in `NODE_OPTIONS`).
 *
 * @internal
 */
export function cliHeapFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = userOptions(execArgv, nodeOptions);
  return CLI_HEAP_FLAGS.filter(([, chosen]) => !given.some((arg) => chosen.test(arg))).map(([flag]) => flag);
}

/**
 * Sets {@link cliHeapFlags} for this process. The bin calls it before it imports anything
 * else (an explicit call rather than an import for its side effect: the package is
 * `"sideEffects": false`, so a bundler may drop a bare import).
 *
 * @internal
 */
export function applyCliHeapFlags(): void {
  for (const flag of cliHeapFlags(process.execArgv, process.env["NODE_OPTIONS"])) setFlagsFromString(flag);
}
