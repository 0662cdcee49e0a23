import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { openConfiguredBackend } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { BackendSettings } from "./backend-settings.js";
import type { WorkingDir } from "./working-dir.js";

/** How {@link migrateState} asks: `undefined` answers are "no" (no input). */
export type AskFn = (query: string, description: string) => Promise<string | undefined>;

/** Whether the implicit local backend (no backend block) holds any state here. */
export function localStateExists(dir: string): boolean {
  const f = join(dir, "terraform.tfstate");
  return (existsSync(f) && statSync(f).size > 0) || existsSync(join(dir, "terraform.tfstate.d"));
}

/**
 * Copies the states of every workspace of the previous backend into the working directory's
 * (new) backend, as `terraform init -migrate-state` does: each workspace that has state is
 * written to the new backend under the new backend's lock; `forceCopy` answers terraform's
 * questions with yes (else `ask` asks them: one workspace "Do you want to copy existing state
 * to the new backend?", several "Do you want to migrate all workspaces to …?"). Nothing is
 * removed from the previous backend. Returns the workspaces copied.
 *
 * @throws CliError `bad_input` when the copy is declined for several workspaces (terraform's
 *   "Migration aborted by user."); a backend's error (typed `StateError`) as thrown.
 */
export async function migrateState(
  wd: WorkingDir,
  previous: BackendSettings,
  env: Readonly<Record<string, string | undefined>>,
  forceCopy: boolean,
  ask: AskFn,
): Promise<string[]> {
  const old = await openConfiguredBackend(previous.type, previous.values, { dir: wd.dir, env });
  try {
    const names = await old.backend.listWorkspaces();
    const withState: { name: string; bytes: Uint8Array }[] = [];
    for (const name of names) {
      const bytes = await old.backend.store(name).read();
      if (bytes !== undefined && bytes.byteLength > 0) withState.push({ name, bytes });
    }
    if (withState.length === 0) return [];
    const from = JSON.stringify(previous.type);
    const to = JSON.stringify(wd.settings.type);
    if (!forceCopy) {
      const several = withState.length > 1 || withState[0]!.name !== "default";
      const answer = several
        ? await ask(
            `Do you want to migrate all workspaces to ${to}?`,
            `Both the existing ${from} backend and the newly configured ${to} backend\nsupport workspaces. When migrating between backends, Terraform will copy\nall workspaces (with the same names). THIS WILL OVERWRITE any conflicting\nstates in the destination.\n\nTerraform initialization doesn't currently migrate only select workspaces.\nIf you want to migrate a select number of workspaces, you must manually\npull and push those states.\n\nIf you answer "yes", Terraform will migrate all states. If you answer\n"no", Terraform will abort.`,
          )
        : await ask(
            "Do you want to copy existing state to the new backend?",
            `Pre-existing state was found while migrating the previous ${from} backend to the\nnewly configured ${to} backend. No existing state was found in the newly\nconfigured ${to} backend. Do you want to copy this state to the new ${to}\nbackend? Enter "yes" to copy and "no" to start with an empty state.`,
          );
      if (answer?.trim() !== "yes") {
        if (several)
          throw new CliError(CliErrorCode.BadInput, "Migration aborted by user.", { plain: true });
        return [];
      }
    }
    const copied: string[] = [];
    for (const { name, bytes } of withState) {
      const store = wd.backend.store(name);
      const id = await store.lock({ operation: "migration", info: "migrating state" });
      try {
        await store.write(bytes);
      } finally {
        await store.unlock(id);
      }
      copied.push(name);
    }
    return copied;
  } finally {
    await old.close();
  }
}
