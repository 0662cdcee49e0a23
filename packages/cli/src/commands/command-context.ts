import type { Command } from "commander";
import { formatDiag, type Diag, type PlainConfig, type ProviderSchema } from "@magma/provider-api";
import type { CliIo } from "../cli-io.js";
import { decideColour, type Colour } from "../decide-colour.js";
import type { ExitCode } from "../exit-code.js";
import { compactJson, jsonNodeToPlain, stringifyJson } from "../json-text.js";
import type { LogLevel, ProviderSession, ProviderSessionOptions } from "../provider-session.js";
import { readJsonObjectInput, writePrivateFile } from "../read-input.js";
import { redactDocument } from "../sensitive-json.js";
import type { Spinner } from "../spinner.js";
import type { EarlyLaunch } from "../workdir/early-launch.js";

/** The options every single-operation command shares (see `commonOptions`). */
export interface CommonOptions {
  pluginDir?: string[];
  providerVersion?: string;
  providerConfig?: string;
  logLevel?: LogLevel;
  output?: "human" | "json";
  json?: boolean;
  out?: string;
  showSensitive?: boolean;
  schemaCache?: boolean;
  name?: string;
  pretty?: boolean;
}

/** What a command's action needs from the run it is part of: streams, cancellation, output helpers. */
export interface CommandContext {
  /** The streams and environment. */
  readonly io: CliIo;
  /** The working directory (`-chdir`, else `io.cwd`, else the process's). */
  cwd: string;
  /** The command line (long flags normalised to `--name`), for options whose order matters (`-var`, `-var-file`). */
  argv: readonly string[];
  /** Whether the human output is coloured, per stream (decided once per run, see `decideColour`). */
  colour: Colour;
  /** The exit code a command chose for a run that did not throw (`plan -detailed-exitcode`'s 2); undefined for 0. */
  exitCode: ExitCode | undefined;
  /** Fires on SIGINT/SIGTERM. */
  readonly signal: AbortSignal | undefined;
  /** Progress on a terminal. */
  readonly spinner: Spinner;
  /** The schema of the provider last opened, for error reports ("did you mean …"). */
  schema: ProviderSchema | undefined;
  /** Providers launched at start-up for a working-directory command (`bin/magma.ts`), for it to take over. */
  earlyLaunch?: EarlyLaunch;
  /** Writes one line to stderr. */
  err(line: string): void;
  /** Writes text to stdout as it is. */
  print(text: string): void;
  /** Whether the command prints JSON (`--json`, `-o json`, or stdout not a terminal). */
  jsonMode(o: CommonOptions): boolean;
  /** Prints warnings on stderr, one line each, in human mode. */
  printWarnings(o: CommonOptions, warnings: readonly Diag[]): void;
  /**
   * Prints a result: the human form, or the JSON (sensitive values redacted unless
   * `--show-sensitive`); `--out FILE` also gets the full JSON. `compact` prints JSON on one line.
   */
  out(o: CommonOptions, human: () => string, json: () => object, compact?: boolean): void;
  /** Opens the provider `ref` (configured when `configure`), runs `body`, and closes it. */
  withSession(ref: string, o: CommonOptions, configure: boolean, body: (s: ProviderSession) => Promise<void>): Promise<void>;
}

/** Registers one command (or command group) on the program. */
export type RegisterCommand = (program: Command, ctx: CommandContext) => void;

/** Makes the context of one `runCli` run. */
export function createCommandContext(io: CliIo, spinner: Spinner, signal: AbortSignal | undefined): CommandContext {
  const err = (line: string): void => void io.stderr.write(`${line}\n`);
  const jsonMode = (o: CommonOptions): boolean => o.json === true || o.output === "json" || (o.output === undefined && io.stdout.isTTY !== true);
  const ctx: CommandContext = {
    io,
    cwd: io.cwd ?? process.cwd(),
    exitCode: undefined,
    argv: [],
    colour: decideColour(io, []),
    signal,
    spinner,
    schema: undefined,
    err,
    print: (text) => void io.stdout.write(text),
    jsonMode,
    printWarnings(o, warnings) {
      if (!jsonMode(o)) for (const w of warnings) err(formatDiag(w).replace(/\s*\n\s*/g, " "));
    },
    out(o, human, json, compact = false) {
      const doc = jsonMode(o) || o.out !== undefined ? (json() as Record<string, unknown>) : undefined;
      const text = (d: unknown): string => (compact ? compactJson(d) : stringifyJson(d));
      if (o.out !== undefined) writePrivateFile("--out", o.out, `${text(doc)}\n`);
      io.stdout.write(doc !== undefined && jsonMode(o) ? `${text(o.showSensitive === true ? doc : redactDocument(doc))}\n` : human());
    },
    async withSession(ref, o, configure, body) {
      let providerConfig: PlainConfig | undefined;
      if (configure) providerConfig = o.providerConfig === undefined ? {} : (jsonNodeToPlain(readJsonObjectInput("--provider-config", o.providerConfig)) as PlainConfig);
      const so: ProviderSessionOptions = {
        ref,
        env: io.env,
        spinner,
        log: err,
        ...(o.pluginDir === undefined ? {} : { pluginDirs: o.pluginDir }),
        ...(o.providerVersion === undefined ? {} : { providerVersion: o.providerVersion }),
        ...(providerConfig === undefined ? {} : { providerConfig }),
        ...(o.logLevel === undefined ? {} : { logLevel: o.logLevel }),
        ...(signal === undefined ? {} : { signal }),
        ...(o.schemaCache === false ? { schemaCache: false } : {}),
      };
      // The provider launcher (`@magma/plugin`) is loaded by the commands that open one, not by every run.
      const { openProviderSession } = await import("../provider-session.js");
      const session = await openProviderSession(so);
      ctx.schema = session.schema;
      try {
        await body(session);
      } finally {
        await session.close();
      }
    },
  };
  return ctx;
}
