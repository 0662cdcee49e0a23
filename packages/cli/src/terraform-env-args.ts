import { CliError, CliErrorCode } from "./cli-error.js";

/**
 * Terraform's commands, as `TF_CLI_ARGS_<name>` names them (a nested command's words joined
 * by `_`, dashes turned into `_`). magma's own commands (`demo`, `schema`, the single
 * operations) take no arguments from these variables.
 */
const TERRAFORM_COMMANDS = new Set(["init", "validate", "plan", "apply", "destroy", "refresh", "import", "show", "graph", "output", "state", "workspace", "force-unlock"]);

/** Commands whose next word is a subcommand (`state list`, `workspace new`). */
const NESTED = new Set(["state", "workspace"]);

/**
 * Splits an environment variable's value into arguments as Terraform does (mattn/go-shellwords
 * without environment or backtick expansion): blanks separate words; single quotes keep
 * everything literally; double quotes keep everything but a backslash before `"`, `\`, `$` or a
 * backtick; a backslash outside quotes keeps the next character; an unquoted `;`, `&`, `|`, `<`
 * or `>` ends the arguments (what follows is ignored, as terraform ignores it). No variables,
 * globs or comments (`$HOME` and `#` are plain words), which is why this is not `shell-quote`
 * (it expands the first, and turns operators and comments into tokens).
 *
 * @throws CliError (`bad_input`, exit 1 as terraform) on an unclosed quote or a trailing backslash, naming the variable
 */
export function splitShellWords(value: string, name: string): string[] {
  const out: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < value.length && '"\\$`'.includes(value[i + 1]!)) word += value[++i]!;
      else word += c;
      continue;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) out.push(word);
      word = "";
      inWord = false;
      continue;
    }
    if (";&|<>".includes(c)) break;
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\") {
      if (i + 1 >= value.length) throw invalid(name, value);
      word += value[++i]!;
    } else word += c;
  }
  if (quote !== undefined) throw invalid(name, value);
  if (inWord) out.push(word);
  return out;
}

/** Terraform's error for a value it cannot split. */
function invalid(name: string, value: string): CliError {
  return new CliError(CliErrorCode.BadInput, `Error parsing extra CLI args from ${name}: invalid command line string`, { detail: value });
}

/** Where `args` are inserted: right after the first occurrence of `word` (Terraform's mergeEnvArgs). */
function insertAfter(argv: readonly string[], word: string, args: readonly string[]): string[] {
  const i = argv.indexOf(word);
  return [...argv.slice(0, i + 1), ...args, ...argv.slice(i + 1)];
}

/**
 * Adds the arguments of `TF_CLI_ARGS` and `TF_CLI_ARGS_<command>` (e.g. `TF_CLI_ARGS_plan`,
 * `TF_CLI_ARGS_state_list`, `TF_CLI_ARGS_force_unlock`) to a Terraform command's arguments as
 * terraform does: each right after the command's last word, `TF_CLI_ARGS` first, so the
 * command-specific ones come before it and the command line's own after both. Only Terraform's
 * commands take them; other argument lists are returned unchanged.
 *
 * @throws CliError (`bad_input`) when a variable cannot be split (see {@link splitShellWords})
 */
export function mergeTerraformEnvArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  // The command is the first word that is not a flag (a global `-chdir DIR` takes its value).
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith("-")) i += /^--?chdir$/.test(argv[i]!) ? 2 : 1;
  const command = argv[i];
  if (command === undefined || !TERRAFORM_COMMANDS.has(command)) return [...argv];
  let words = [command];
  if (NESTED.has(command)) {
    const sub = argv.slice(i + 1).find((a) => !a.startsWith("-"));
    if (sub !== undefined) words = [command, sub];
  }
  const last = words[words.length - 1]!;
  let out = [...argv];
  for (const name of ["TF_CLI_ARGS", `TF_CLI_ARGS_${words.join("_").replaceAll("-", "_")}`]) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    out = insertAfter(out, last, splitShellWords(value, name));
  }
  return out;
}
