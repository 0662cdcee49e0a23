/** Test support: a magma plan file as text a secrets scan can search. */
import { readFileSync } from "node:fs";

/** A magma plan file's text with every msgpack value decoded (latin1), so that a scan sees the values it holds. */
export function planFileText(path: string): string {
  const text = readFileSync(path, "utf8");
  const decoded: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === "msgpack" && typeof x === "string") decoded.push(Buffer.from(x, "base64").toString("latin1"));
        else walk(x);
      }
    }
  };
  walk(JSON.parse(text));
  return `${text}\n${decoded.join("\n")}`;
}
