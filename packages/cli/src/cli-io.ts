/** A stream the CLI writes to. */
export interface CliStream {
  /** True for a terminal: human output by default, and the spinner. */
  readonly isTTY?: boolean;
  /** A terminal's width in columns (node's `tty.WriteStream#columns`); Terraform formats for it. */
  readonly columns?: number;
  /** Writes text. */
  write(text: string): unknown;
}

/** Where the CLI reads and writes. */
export interface CliIo {
  /** Results (JSON or the human form). */
  readonly stdout: CliStream;
  /** Errors, warnings, progress, provider logs. */
  readonly stderr: CliStream;
  /** The environment (`MAGMA_PLUGIN_DIRS`, Terraform's variables, the provider's environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where confirmations are read from (`force-unlock` without `-force`). Default: none (no confirmation possible). */
  readonly stdin?: NodeJS.ReadableStream;
  /** The working directory commands on a Terraform working directory run in. Default `process.cwd()`. */
  readonly cwd?: string;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  // stdin is opened only when a command reads it (touching process.stdin opens a handle).
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    get stdin(): NodeJS.ReadableStream {
      return process.stdin;
    },
  };
}
