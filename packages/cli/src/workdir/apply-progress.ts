import type { EngineEvent } from "@magma/engine";
import { paintf } from "../colour.js";

/** A number of seconds as Go prints a `time.Duration` truncated to seconds (`0s`, `10s`, `1m0s`, `1h0m0s`). */
export function goDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h}h${m}m${r}s`;
  if (m > 0) return `${m}m${r}s`;
  return `${r}s`;
}

const STARTING: Readonly<Record<string, string>> = { create: "Creating...", update: "Modifying...", delete: "Destroying...", read: "Reading...", forget: "Removing..." };
const STILL: Readonly<Record<string, string>> = { create: "creating", update: "modifying", delete: "destroying", read: "reading", forget: "removing" };
const DONE: Readonly<Record<string, string>> = { create: "Creation complete", update: "Modifications complete", delete: "Destruction complete", read: "Read complete", forget: "Removal complete" };

/**
 * The line `terraform apply` prints for an apply event (Terraform's UI hook), or undefined
 * for events it prints nothing for:
 * `aws_x.y: Creating...`, `aws_x.y: Still creating... [10s elapsed]`,
 * `aws_x.y: Creation complete after 3s [id=abc]`, `aws_x.y: Destroying... [id=abc]`,
 * `aws_x.y: Still destroying... [id=abc, 10s elapsed]`, `aws_x.y: Destruction complete after 0s`,
 * `aws_x.y: Importing... [id=abc]`, `aws_x.y: Import complete [id=abc]`.
 * `ids` remembers each object's id from its start event, for the "Still …" lines.
 * With `color` the line is bold, as Terraform's UI hook colours it.
 */
export function applyEventLine(e: EngineEvent, ids: Map<string, string>, color = false): string | undefined {
  const line = eventText(e, ids);
  if (line === undefined) return undefined;
  // Terraform's hook colours "[reset][bold]%s…[reset]" for starts and "still" lines (a reset before the one
  // colorstring adds), "[reset][bold]%s…" for completions and refreshes.
  const closing = e.type === "apply_start" || e.type === "apply_progress" ? "[reset]" : "";
  return paintf(color, `[reset][bold]%s${closing}`, line);
}

function eventText(e: EngineEvent, ids: Map<string, string>): string | undefined {
  const addr = (a: string, deposed?: string): string => (deposed === undefined ? a : `${a} (deposed object ${deposed})`);
  switch (e.type) {
    case "apply_start": {
      const key = `${e.address}\0${e.deposedKey ?? ""}`;
      if (e.idKey !== undefined && e.idValue !== undefined) ids.set(key, `${e.idKey}=${e.idValue}`);
      else ids.delete(key);
      const id = ids.get(key);
      return `${addr(e.address, e.deposedKey)}: ${STARTING[e.action] ?? "Applying..."}${id === undefined ? "" : ` [${id}]`}`;
    }
    case "apply_progress": {
      const id = ids.get(`${e.address}\0${e.deposedKey ?? ""}`);
      return `${addr(e.address, e.deposedKey)}: Still ${STILL[e.action] ?? "applying"}... [${id === undefined ? "" : `${id}, `}${goDuration(e.elapsedSeconds)} elapsed]`;
    }
    case "apply_complete": {
      const id = e.idKey !== undefined && e.idValue !== undefined && e.action !== "delete" ? ` [${e.idKey}=${e.idValue}]` : "";
      return `${addr(e.address, e.deposedKey)}: ${DONE[e.action] ?? "Apply complete"} after ${goDuration(e.elapsedSeconds)}${id}`;
    }
    case "refresh_start":
      return `${e.address}: Refreshing state...${e.idKey !== undefined && e.idValue !== undefined ? ` [${e.idKey}=${e.idValue}]` : ""}`;
    case "import_start":
      return `${e.address}: Importing... [id=${e.importId}]`;
    case "import_complete":
      return `${e.address}: Import complete [id=${e.importId}]`;
    case "ephemeral_op_start":
    case "ephemeral_op_complete":
      return `${e.address}: ${ephemeralOpText(e.type === "ephemeral_op_start" ? "start" : "complete", e.action, e.type === "ephemeral_op_complete" ? e.elapsedSeconds : 0)}`;
    default:
      return undefined;
  }
}

/** Terraform's words for an ephemeral resource operation (its UI hook's `Opening...`, `Closing complete after 0s`). */
export function ephemeralOpText(phase: "start" | "complete", action: "open" | "renew" | "close", elapsedSeconds: number): string {
  const verb = action === "open" ? "Opening" : action === "renew" ? "Renewing" : "Closing";
  return phase === "start" ? `${verb}...` : `${verb} complete after ${goDuration(elapsedSeconds)}`;
}
