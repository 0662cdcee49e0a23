import { createInterface } from "node:readline";
import type { CommandContext } from "./command-context.js";

/** The first line of the command's stdin (a prompt's answer), or undefined when there is no stdin or it ends first. */
export async function readAnswer(ctx: CommandContext): Promise<string | undefined> {
  const input = ctx.io.stdin;
  if (input === undefined) return undefined;
  const rl = createInterface({ input, terminal: false });
  try {
    for await (const line of rl) return line;
    return undefined;
  } finally {
    rl.close();
  }
}
