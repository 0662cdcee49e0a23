import { fileURLToPath } from "node:url";
import { objectVal, stringVal } from "@magma/cty";
import type { HclFunction } from "./function.js";
import { terraformFunctions } from "./funcs/index.js";
import type { EvalScope } from "./scope.js";

/** The directory of the terraform-generated corpus: the module directory terraform ran in. */
export const CORPUS_DIR: string = fileURLToPath(new URL("../testdata/corpus/", import.meta.url));

/**
 * The functions the corpus runner evaluates with: Terraform's library rooted at the corpus
 * directory (the evaluator adds its own forms, `try`, `can`, `templatefile` and `templatestring`).
 */
export function corpusFunctions(): ReadonlyMap<string, HclFunction> {
  return terraformFunctions({ baseDir: CORPUS_DIR });
}

/**
 * The scope a corpus case is evaluated in: `path.module` (`.`, as for terraform's root
 * module, with relative paths resolving against {@link CORPUS_DIR}) and the functions.
 */
export function corpusScope(): EvalScope {
  return {
    variables: { path: objectVal({ module: stringVal("."), root: stringVal("."), cwd: stringVal(CORPUS_DIR.replace(/\/$/, "")) }) },
    functions: corpusFunctions(),
    baseDir: CORPUS_DIR,
  };
}

/**
 * Corpus cases whose exact terraform result is not reproduced, with the reason (the README's
 * "Known differences"); both corpus runners leave them out.
 */
export const CORPUS_KNOWN_DIFFERENCES: ReadonlyMap<string, string> = new Map<string, string>([]);
