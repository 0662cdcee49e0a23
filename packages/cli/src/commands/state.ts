import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { registerStateListCommand } from "./state-list.js";
import { registerStateMvCommand } from "./state-mv-command.js";
import { registerStatePullCommand } from "./state-pull.js";
import { registerStatePushCommand } from "./state-push.js";
import { registerStateReplaceProviderCommand } from "./state-replace-provider.js";
import { registerStateRmCommand } from "./state-rm.js";
import { registerStateShowCommand } from "./state-show-command.js";

/** `magma state list|show|rm|mv|pull|push|replace-provider`: Terraform's state subcommands on the working directory's backend. */
export function registerStateCommand(program: Command, ctx: CommandContext): void {
  const state = program
    .command("state")
    .summary("inspect and change the working directory's state")
    .description(
      "Terraform's state subcommands on the current workspace's state in the working directory's backend (the configuration's backend block: local or pg; the local default otherwise). Flags as terraform spells them: -lock=false, -lock-timeout=10s, -state=PATH, -backup=PATH, -dry-run.",
    )
    .exitOverride();
  registerStateListCommand(state, ctx);
  registerStateShowCommand(state, ctx);
  registerStateRmCommand(state, ctx);
  registerStateMvCommand(state, ctx);
  registerStatePullCommand(state, ctx);
  registerStatePushCommand(state, ctx);
  registerStateReplaceProviderCommand(state, ctx);
}
