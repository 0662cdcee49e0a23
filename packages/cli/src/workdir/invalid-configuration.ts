import { resolve } from "node:path";
import type { Diagnostic } from "@magma/hcl";
import { paint } from "../colour.js";
import type { CommandContext } from "../commands/command-context.js";
import { terminalColumns } from "../terminal-columns.js";
import { terraformDiagnosticOrder } from "./terraform-diagnostic-order.js";
import { formatDiagnostics, SourceCache } from "./format-diagnostic.js";
import { JsonUi } from "./json-ui.js";

export { InvalidConfigurationError, isInvalidConfigurationError } from "./invalid-configuration-error.js";

/**
 * How a command prints configuration diagnostics, as terraform's commands differ:
 * - `ui`: its older commands (`state *`, `workspace *`, `console`, `import`, `taint`,
 *   `providers`, `graph`, `force-unlock`): each diagnostic through the legacy `Ui.Error`,
 *   its text and a newline, in colour inside one more `[red]…[reset]`;
 * - `ui-absolute`: as `ui`, the files named by their absolute paths, as terraform's `taint`,
 *   `state pull`, `state push`, `state rm`, `state mv` and `state replace-provider` load them;
 * - `view`: its view-based commands (`plan`, `apply`, `destroy`, `refresh`, `output`, `show`):
 *   the diagnostics alone, with no line after them;
 * - `json`: an operation's `-json` UI: the version message, then one `diagnostic` message each.
 */
export type ConfigurationDiagnosticsStyle = "ui" | "ui-absolute" | "view" | "json";

/**
 * Prints the root module's diagnostics as terraform does when its configuration does not load
 * before a command: human ones on stderr, sorted its way (warnings first, then by file and
 * position), JSON ones on stdout in the order found.
 */
export function writeConfigurationDiagnostics(ctx: CommandContext, dir: string, diagnostics: readonly Diagnostic[], style: ConfigurationDiagnosticsStyle): void {
  const absolute = (d: Diagnostic): Diagnostic => (d.subject === undefined ? d : { ...d, subject: { ...d.subject, filename: resolve(dir, d.subject.filename) } });
  if (style === "json") {
    // Terraform's JSON view does not sort: the diagnostics in the order the loader found them.
    const ui = new JsonUi((l) => void ctx.io.stdout.write(l));
    ui.version();
    const sources = new SourceCache(dir);
    for (const d of diagnostics) ui.diagnostic(d, undefined, sources);
    return;
  }
  const diags = terraformDiagnosticOrder(style === "ui-absolute" ? diagnostics.map(absolute) : diagnostics);
  const colour = ctx.colour.stderr;
  const width = terminalColumns(ctx.io.stderr);
  if (style === "view") {
    ctx.io.stderr.write(formatDiagnostics(diags, dir, colour, { width }));
    return;
  }
  for (const d of diags) {
    const text = formatDiagnostics([d], dir, colour, { width });
    ctx.io.stderr.write(`${colour ? paint(true, `[red]${text}[reset]`) : text}\n`);
  }
}
