import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import type { LockInfo, LockRequest } from "../backend.js";
import { goQuote } from "./go-json.js";

/** Go's `time.RFC3339Nano`: fractional seconds without trailing zeros. @internal */
export function rfc3339Nano(d: Date): string {
  return d.toISOString().replace(/\.?0*Z$/, "Z");
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}

/** A new lock's info, as Terraform's `statemgr.NewLockInfo` fills it in (`user@host`, a UUID). @internal */
export function newLockInfo(request: LockRequest, version: string, path: string): LockInfo {
  return {
    id: randomUUID(),
    operation: request.operation,
    info: request.info ?? "",
    who: `${safeUser()}@${hostname()}`,
    version,
    created: rfc3339Nano(new Date()),
    path,
  };
}

/** Go's `json.Marshal` of `statemgr.LockInfo` (field order, HTML-safe escaping). @internal */
export function marshalLockInfo(info: LockInfo): string {
  const fields: [string, string][] = [["ID", info.id], ["Operation", info.operation], ["Info", info.info], ["Who", info.who], ["Version", info.version], ["Created", info.created], ["Path", info.path]];
  return `{${fields.map(([k, v]) => `"${k}":${goQuote(v)}`).join(",")}}`;
}

/** Reads a `statemgr.LockInfo` JSON document; undefined when it is not one. @internal */
export function parseLockInfo(text: string): LockInfo | undefined {
  try {
    const j = JSON.parse(text) as unknown;
    if (typeof j !== "object" || j === null || Array.isArray(j)) return undefined;
    const o = j as Record<string, unknown>;
    const s = (k: string): string => (typeof o[k] === "string" ? (o[k] as string) : "");
    return { id: s("ID"), operation: s("Operation"), info: s("Info"), who: s("Who"), version: s("Version"), created: s("Created"), path: s("Path") };
  } catch {
    return undefined;
  }
}
