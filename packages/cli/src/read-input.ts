import { closeSync, existsSync, fchmodSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { CliError, CliErrorCode } from "./cli-error.js";
import { parseJsonText, type JsonNode } from "./json-text.js";

/**
 * The text of a command-line input that is JSON inline, `@FILE`, a path to an existing
 * file, or `-` for standard input. Inline JSON is recognised by its first character
 * (`{`, `[`, `"`), or when it is a number, `true`, `false` or `null`.
 *
 * @param what Names the option in errors (`--config`).
 * @throws {@link CliError} `bad_input` when the file cannot be read or the text is neither JSON nor a file.
 */
export function readInputText(what: string, arg: string): string {
  const t = arg.trim();
  if (t === "-") return readFile(what, 0);
  if (t.startsWith("@")) return readFile(what, t.slice(1));
  if (/^[{["]/.test(t) || /^(?:-?\d[\d.eE+-]*|true|false|null)$/.test(t)) return arg;
  if (existsSync(t) && statSync(t).isFile()) return readFile(what, t);
  // The argument is quoted only when it is plainly meant as a path: otherwise it may be a
  // secret given in a malformed form.
  const shown = /^(?:\.{0,2}\/|~\/)\S*$|^\S+\.json$/.test(t) ? JSON.stringify(t) : `the argument (${[...arg].length} characters)`;
  throw new CliError(CliErrorCode.BadInput, `${what}: ${shown} is neither JSON nor an existing file`, {
    hint: `give ${what} inline JSON ('{"key": "value"}'), @FILE, a file path, or - for standard input`,
  });
}

/** {@link readInputText}, then parse it as JSON. @throws {@link CliError} `bad_input`. */
export function readJsonInput(what: string, arg: string): JsonNode {
  return parseJsonText(readInputText(what, arg), what);
}

/** Like {@link readJsonInput} but the value must be a JSON object. @throws {@link CliError} `bad_input`. */
export function readJsonObjectInput(what: string, arg: string): JsonNode & { kind: "object" } {
  const node = readJsonInput(what, arg);
  if (node.kind !== "object") throw new CliError(CliErrorCode.BadInput, `${what}: expected a JSON object, got ${describeNode(node)}`);
  return node;
}

/**
 * Writes text to a file readable by its owner only (mode 0600, like a state file: it may
 * hold sensitive values); an existing file is truncated and set to 0600 too.
 *
 * @param what Names the option in errors (`--out`).
 * @throws {@link CliError} `bad_input` when the file cannot be written.
 */
export function writePrivateFile(what: string, file: string, text: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, "w", 0o600);
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such directory" : (e as Error).message;
    throw new CliError(CliErrorCode.BadInput, `${what}: cannot write ${JSON.stringify(file)}: ${reason}`, { cause: e });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Decodes standard base64 (as `private` is written); empty text is empty bytes. @throws {@link CliError} `bad_input`. */
export function decodeBase64(what: string, text: string): Uint8Array {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length % 4 === 1) {
    // Private state may hold secrets: say where, never what.
    const bad = /[^A-Za-z0-9+/=]/.exec(t);
    const where = bad === null ? `its length (${t.length}) or padding is wrong` : `a character that is not base64 at offset ${bad.index}`;
    throw new CliError(CliErrorCode.BadInput, `${what}: not base64: ${where}`, { hint: "private state is standard base64, as magma prints it" });
  }
  return new Uint8Array(Buffer.from(t, "base64"));
}

/** Standard base64 of bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** `an array`, `a string`, … for messages. */
export function describeNode(node: JsonNode): string {
  return node.kind === "array" || node.kind === "object" ? `an ${node.kind}` : node.kind === "null" ? "null" : `a ${node.kind}`;
}

function readFile(what: string, file: string | 0): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message;
    throw new CliError(CliErrorCode.BadInput, `${what}: cannot read ${file === 0 ? "standard input" : JSON.stringify(file)}: ${reason}`, { cause: e });
  }
  return decodeUtf8(what, file === 0 ? "standard input" : JSON.stringify(file), bytes);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly, as Terraform reads its files: invalid bytes are an error
 * naming the source and the byte offset of the first bad sequence, never U+FFFD.
 *
 * @param what Names the option in errors (`--config`).
 * @param source Names the file (quoted) or `standard input`.
 * @throws {@link CliError} `bad_input`.
 */
export function decodeUtf8(what: string, source: string, bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (e) {
    throw new CliError(CliErrorCode.BadInput, `${what}: ${source} is not valid UTF-8: invalid byte sequence at byte offset ${invalidUtf8Offset(bytes)}`, {
      hint: "save the file as UTF-8",
      cause: e,
    });
  }
}

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (as the
 * Unicode standard defines it: no overlong forms, no surrogates, nothing above U+10FFFF),
 * or the length when all of it is well formed.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  const cont = (j: number, lo = 0x80, hi = 0xbf): boolean => j < bytes.length && bytes[j]! >= lo && bytes[j]! <= hi;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) i += 1;
    else if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) i += 2;
    else if (b === 0xe0 ? cont(i + 1, 0xa0) && cont(i + 2) : b === 0xed ? cont(i + 1, 0x80, 0x9f) && cont(i + 2) : b >= 0xe1 && b <= 0xef && cont(i + 1) && cont(i + 2)) i += 3;
    else if (b === 0xf0 ? cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) : b === 0xf4 ? cont(i + 1, 0x80, 0x8f) && cont(i + 2) && cont(i + 3) : b >= 0xf1 && b <= 0xf3 && cont(i + 1) && cont(i + 2) && cont(i + 3)) i += 4;
    else return i;
  }
  return i;
}
