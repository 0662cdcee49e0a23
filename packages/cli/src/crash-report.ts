/**
 * What `magma` prints when it crashes: an internal error nothing caught (terraform's panic).
 * Terraform prints its "TERRAFORM CRASH" banner, the panic's value and the goroutine stack and
 * exits 11; magma prints the same kind of banner and exits 11, but the error's message and
 * stack only when the user asked for a log (`MAGMA_LOG` or `TF_LOG` set): an internal error's
 * message may quote a value the run held (a secret, an ephemeral value), and a stack dump is
 * not for the user by default.
 */

/** The exit code of a crash, as terraform's panic handler's. */
export const CRASH_EXIT_CODE = 11;

const RULE = "!!!!!!!!!!!!!!!!!!!!!!!!!!!!! MAGMA CRASH !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!";

/** Whether the environment asks for the crash's details (a log level of any kind). */
function asksDetails(env: Readonly<Record<string, string | undefined>>): boolean {
  return [env["MAGMA_LOG"], env["TF_LOG"]].some((v) => v !== undefined && v.trim() !== "" && v.trim().toLowerCase() !== "off");
}

/**
 * The crash text for `error` (written to stderr): the banner, what was done about the run (the
 * operation stopped as after an interrupt: the state saved, the providers and ephemeral
 * resources closed), and the error's kind; its message and stack only when `env` asks for a
 * log (see the module's comment).
 */
export function crashReport(error: unknown, env: Readonly<Record<string, string | undefined>>): string {
  const kind = error instanceof Error ? error.name : typeof error;
  const lines = [
    "",
    RULE,
    "",
    "magma crashed! This is always indicative of a bug within magma: an internal",
    `error (${kind}) that nothing handled. The operation under way is stopped as`,
    "after an interrupt: the state is saved and the providers and ephemeral",
    "resources it opened are closed.",
    "",
  ];
  if (asksDetails(env)) {
    const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    lines.push(RULE, "", `crash: ${detail}`, "");
  } else {
    lines.push("Run the command again with MAGMA_LOG=debug (or TF_LOG) set to see the error", "and where it happened; it is left out here because it may quote values of the", "run.", "", RULE, "");
  }
  return `${lines.join("\n")}\n`;
}
