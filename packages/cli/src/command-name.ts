/**
 * The command a `magma` command line runs: its first word that is not a flag (a global
 * `-chdir DIR` / `--chdir DIR` takes its value), as Terraform finds it; undefined when there is
 * none (`magma`, `magma --help`, `magma --version`).
 */
export function commandName(argv: readonly string[]): string | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith("-")) i += /^--?chdir$/.test(argv[i]!) ? 2 : 1;
  return argv[i];
}
