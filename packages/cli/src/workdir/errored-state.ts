import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatStateFile, type StateFile } from "@magma/state";
import type { AddressedDiagnostic } from "./format-diagnostic.js";

/** The file terraform writes a state it could not save into, in the working directory. */
export const ERRORED_STATE_FILE = "errored.tfstate";

/** Terraform's detail when the state went to `errored.tfstate` (its `stateWriteBackedUpError`). */
const BACKED_UP =
  'The error shown above has prevented Terraform from writing the updated state to the configured backend. To allow for recovery, the state has been written to the file "errored.tfstate" in the current working directory.\n\nRunning "terraform apply" again at this point will create a forked state, making it harder to recover.\n\nTo retry writing this state, use the following command:\n    terraform state push errored.tfstate\n';

/** Terraform's detail when even `errored.tfstate` could not be written (its `stateWriteConsoleFallbackError`). */
const PRINTED =
  "The errors shown above prevented Terraform from writing the updated state to\nthe configured backend and from creating a local backup file. As a fallback,\nthe raw state data is printed above as a JSON object.\n\nTo retry writing this state, copy the state data (from the first { to the last } inclusive) and save it into a local file called errored.tfstate, then run the following command:\n    terraform state push errored.tfstate\n";

/** What {@link saveErroredState} did with a state the backend refused. */
export interface ErroredState {
  /** Where the state went: `errored.tfstate`, or the emergency dump (the state's text, for the caller to print). */
  readonly savedTo: "file" | "dump";
  /** The state's text when it could not be written to a file: print it (terraform prints it on stderr, or as a `-json` log message). */
  readonly dump?: string;
  /** Terraform's diagnostics, in its order: "Failed to save state", then "Failed to create local state file" when the file failed, then "Failed to persist state to backend". */
  readonly diagnostics: readonly AddressedDiagnostic[];
}

function messageOf(e: unknown): string {
  // Structural: an error from another realm (a worker, a test sandbox) is not `instanceof Error` here.
  return typeof e === "object" && e !== null && "message" in e && typeof e.message === "string" ? e.message : String(e);
}

/**
 * Terraform's last-ditch recovery of a state the backend would not store (its local backend's
 * `backupStateForError`): the state is written to `errored.tfstate` in the working directory
 * `dir` (replacing any there), or when even that fails, returned as text for the caller to
 * print, with the diagnostics that say so. Never throws: the state is kept one way or another.
 */
export function saveErroredState(state: StateFile, error: unknown, dir: string): ErroredState {
  const failed: AddressedDiagnostic = { severity: "error", summary: "Failed to save state", detail: `Error saving state: ${messageOf(error)}` };
  const text = formatStateFile(state);
  try {
    writeFileSync(join(dir, ERRORED_STATE_FILE), text, { mode: 0o644 });
    return { savedTo: "file", diagnostics: [failed, { severity: "error", summary: "Failed to persist state to backend", detail: BACKED_UP }] };
  } catch (e) {
    return {
      savedTo: "dump",
      dump: text,
      diagnostics: [
        failed,
        { severity: "error", summary: "Failed to create local state file", detail: `Error creating local state file for recovery: ${messageOf(e)}` },
        { severity: "error", summary: "Failed to persist state to backend", detail: PRINTED },
      ],
    };
  }
}
