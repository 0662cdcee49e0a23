import { fileURLToPath } from "node:url";
import { objectVal, stringVal } from "@magma/cty";
import type { HclFunction } from "./function.js";
import type { EvalScope } from "./scope.js";

/** The directory of the terraform-generated corpus: the module directory terraform ran in. */
export const CORPUS_DIR: string = fileURLToPath(new URL("../testdata/corpus/", import.meta.url));

/**
 * The functions the corpus runner evaluates with. On this branch: none beyond the
 * evaluator's own forms (`try`, `can`, `templatefile`), so only the `syntax-*` groups
 * run. At merge this becomes `terraformFunctions({ baseDir: CORPUS_DIR })`.
 */
export function corpusFunctions(): ReadonlyMap<string, HclFunction> | undefined {
  return undefined;
}

/**
 * The scope a corpus case is evaluated in: `path.module` (`.`, as for terraform's root
 * module, with relative paths resolving against {@link CORPUS_DIR}) and the functions.
 */
export function corpusScope(): EvalScope {
  return {
    variables: { path: objectVal({ module: stringVal("."), root: stringVal("."), cwd: stringVal(CORPUS_DIR.replace(/\/$/, "")) }) },
    functions: corpusFunctions() ?? new Map(),
    baseDir: CORPUS_DIR,
  };
}
