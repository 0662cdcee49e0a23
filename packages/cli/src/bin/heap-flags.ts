import { setFlagsFromString } from "node:v8";

/**
 * The V8 flag the `magma` executable sets for itself, before anything else is loaded:
 * the young generation keeps its initial size (node 20: two 1 MiB semispaces) instead of
 * growing to two 16 MiB semispaces, which node's malloc'd memory then follows. A 2,000-instance
 * plan peaks ~40 MiB lower (see packages/engine-bench's README, "Memory (case 4)").
 *
 * Only `--semi-space-growth-factor` works here: node has already sized the heap when this
 * code runs, so `--max-semi-space-size` set at run time changes nothing.
 *
 * @internal
 */
export const CLI_HEAP_FLAGS = ["--semi-space-growth-factor=1"] as const;

/**
 * Whether the user chose the young generation's size themselves (`--max-semi-space-size`,
 * `--min-semi-space-size` or `--semi-space-growth-factor` on node's command line or in
 * `NODE_OPTIONS`): their choice is kept.
 *
 * @internal
 */
export function youngGenerationChosen(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const chosen = /^--(max|min)[-_]semi[-_]space[-_]size\b|^--semi[-_]space[-_]growth[-_]factor\b/;
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((arg) => chosen.test(arg));
}

/**
 * Sets {@link CLI_HEAP_FLAGS} for this process unless the user sized the young generation
 * themselves. The bin calls it before it imports anything else (an explicit call rather than an
 * import for its side effect: the package is `"sideEffects": false`, so a bundler may drop a
 * bare import).
 *
 * @internal
 */
export function applyCliHeapFlags(): void {
  if (youngGenerationChosen(process.execArgv, process.env["NODE_OPTIONS"])) return;
  for (const flag of CLI_HEAP_FLAGS) setFlagsFromString(flag);
}
