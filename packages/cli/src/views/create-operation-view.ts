import type { CommandContext } from "../commands/command-context.js";
import { HumanOperationView } from "./human-operation-view.js";
import { JsonOperationView } from "./json-operation-view.js";
import type { OperationKind, OperationView } from "./operation-view.js";

/** Which view {@link createOperationView} makes, and for what. */
export interface CreateOperationViewOptions {
  /** The operation shown. */
  readonly kind: OperationKind;
  /** `-json`: terraform's machine-readable UI instead of the human output. */
  readonly json: boolean;
  /** The working directory (the diagnostics' file names are relative to it). */
  readonly dir: string;
}

/**
 * The view of a working-directory operation, as terraform's `views.NewOperation`/`NewApply`
 * choose one: with `-json` its machine-readable UI on stdout, else its human output (stdout,
 * stderr, the question read from stdin) coloured as the run decided, without the next steps
 * under `TF_IN_AUTOMATION`.
 */
export function createOperationView(ctx: CommandContext, o: CreateOperationViewOptions): OperationView {
  if (o.json) return new JsonOperationView({ kind: o.kind, dir: o.dir, write: (l) => void ctx.io.stdout.write(l) });
  return new HumanOperationView({
    kind: o.kind,
    io: ctx.io,
    colour: ctx.colour,
    dir: o.dir,
    // TF_IN_AUTOMATION: terraform leaves out the next step (its PlanNextStep), saved plan or not.
    inAutomation: (ctx.io.env["TF_IN_AUTOMATION"] ?? "") !== "",
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  });
}
