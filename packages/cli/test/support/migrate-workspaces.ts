/**
 * Test support for the `init -migrate-state` tests of a backend (s3, pg) against terraform:
 * one step run by either tool, a local directory holding state in `default` and `dev`, and
 * the other tool's plan of each workspace. Each test keeps its own backend block.
 */
import { magma } from "./run-magma.js";
import { terraformAsync, workdir } from "./workdir.js";

/** Which tool runs a step. */
export type Tool = "terraform" | "magma";

/** What a step printed. */
export interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The root module both tools apply in each workspace: one object holding the workspace's name. */
export const WORKSPACE_MAIN = `resource "terraform_data" "a" {\n  input = terraform.workspace\n}\noutput "ws" {\n  value = terraform_data.a.output\n}\n`;

/** Steps run by `tool` with `env` set, each required to succeed (magma's stderr empty). */
export function migrationSteps(env: Readonly<Record<string, string>>): {
  run: (tool: Tool, args: string[], cwd: string, extra?: Record<string, string>) => Promise<StepResult>;
  localWorkspaces: (tool: Tool) => Promise<string>;
  plansClean: (tool: Tool, dir: string) => Promise<void>;
} {
  const run = async (tool: Tool, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<StepResult> => {
    if (tool === "terraform") return terraformAsync(args, cwd, { env: { ...env, ...extra }, expect: 0 });
    const r = await magma(args, { cwd, env: { ...env, ...extra } });
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
    return r;
  };
  /** A directory with local state in `default` and `dev`, written by `tool`. */
  const localWorkspaces = async (tool: Tool): Promise<string> => {
    const dir = workdir({ "main.tf": WORKSPACE_MAIN });
    if (tool === "terraform") await run(tool, ["init", "-input=false"], dir);
    await run(tool, ["apply", "-auto-approve", "-input=false"], dir);
    await run(tool, ["workspace", "new", "dev"], dir);
    await run(tool, ["apply", "-auto-approve", "-input=false"], dir);
    await run(tool, ["workspace", "select", "default"], dir);
    return dir;
  };
  /** The other tool's plan of each workspace: exit code 0 with -detailed-exitcode is "no changes". */
  const plansClean = async (tool: Tool, dir: string): Promise<void> => {
    for (const ws of ["default", "dev"]) await run(tool, ["plan", "-detailed-exitcode", "-input=false", "-lock=false"], dir, { TF_WORKSPACE: ws });
  };
  return { run, localWorkspaces, plansClean };
}
