import type { Value } from "@magma/cty";
import type { Attribute, Block } from "@magma/provider-api";

/** Secrets shorter than this are not searched for (they would blank out ordinary words). */
const MIN_SECRET_LENGTH = 4;
/** The most secrets remembered per connection (the oldest are forgotten first). */
const MAX_SECRETS = 4096;
/** Provider-configuration attributes whose values count as secrets even when not marked sensitive (hashicorp/aws's `access_key`, `secret_key`, `token`). */
const CREDENTIAL_NAME = /key|secret|token|password|passwd|passphrase|credential|auth|session|private|cert|signature/i;
const REDACTED = "[redacted]";

/** What a credential looks like wherever it appears. */
const CREDENTIAL_PATTERNS: readonly (readonly [RegExp, string])[] = [
  // AWS access key ids (long-term AKIA, temporary ASIA, and the other unique-id prefixes).
  [/\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{12,}\b/g, "[redacted access key id]"],
  // Authorization and security-token headers, in dumps and in JSON fields alike.
  [/(\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?)[^"'\r\n\\]+/gi, `$1${REDACTED}`],
  [/(\bx-amz-security-token\b["']?\s*[:=]\s*["']?)[^"'\r\n\\,\s]+/gi, `$1${REDACTED}`],
  // Credential-like assignments: secret_key=…, "SecretAccessKey":"…", password: …
  [
    /(\b(?:aws_)?(?:secret[_-]?(?:access[_-]?)?key|secretaccesskey|session[_-]?token|sessiontoken|password|passwd|api[_-]?key|private[_-]?key)\b["']?\s*[:=]\s*["']?)[^"'\r\n\\,\s}]+/gi,
    `$1${REDACTED}`,
  ],
  // Request and response bodies in structured log fields (`"http.request.body":"…"`).
  [/("[^"\\]*\bbody\b[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `$1"${REDACTED}"`],
  // Body dumps in plain lines (`Request Body: …`, `body=…`).
  [/(\b(?:request|response)?[ _-]?body\b\s*[:=]\s*).+$/gim, `$1${REDACTED}`],
];

/** A `[TRACE]`, `[DEBUG]` or `[INFO]` plain log line (optionally after Go's `log` timestamp). */
const QUIET_PLAIN = /^(?:\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? )?\s*\[(?:TRACE|DEBUG|INFO)\]/;
const QUIET_JSON_LEVELS = new Set(["trace", "debug", "info"]);

/**
 * Keeps secrets out of the errors of one provider connection. It remembers the values of
 * sensitive attributes (of any configuration, state or plan the connection sent or
 * received) and the credential-like fields of the provider configuration, and redacts them
 * — and anything that looks like a credential (AWS access key ids, `Authorization` and
 * security-token headers, secret keys, passwords, request and response bodies) — from
 * text that goes into an error.
 *
 * @internal
 */
export class SecretRedactor {
  readonly #secrets = new Set<string>();
  /** Whether a block has a sensitive attribute at any depth (so values of blocks without one are never walked). */
  readonly #hasSensitive = new WeakMap<Block, boolean>();

  /** How many secrets are remembered. */
  get size(): number {
    return this.#secrets.size;
  }

  /** Remembers one secret string. */
  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#secrets.has(secret)) return;
    if (this.#secrets.size >= MAX_SECRETS) {
      const oldest = this.#secrets.values().next().value;
      if (oldest !== undefined) this.#secrets.delete(oldest);
    }
    this.#secrets.add(secret);
  }

  /** Remembers the strings inside the sensitive attributes of a value of `block`. Cheap for blocks without any. */
  rememberSensitive(block: Block, value: Value): void {
    if (!this.#blockHasSensitive(block)) return;
    this.#walkBlock(block.attributes, block.blockTypes, value, false);
  }

  /** Remembers the sensitive and credential-named values of a provider configuration. */
  rememberProviderConfig(block: Block, value: Value): void {
    this.#walkBlock(block.attributes, block.blockTypes, value, true);
  }

  /** `text` with every remembered secret and every credential-like text replaced. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a secret containing another is replaced whole.
    const secrets = [...this.#secrets].sort((a, b) => b.length - a.length);
    for (const s of secrets) {
      out = replaceAll(out, s);
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s) out = replaceAll(out, escaped);
    }
    for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }

  #blockHasSensitive(block: Block): boolean {
    let known = this.#hasSensitive.get(block);
    if (known === undefined) {
      known = attributesHaveSensitive(block.attributes) || Object.values(block.blockTypes ?? {}).some((nb) => this.#blockHasSensitive(nb.block));
      this.#hasSensitive.set(block, known);
    }
    return known;
  }

  #walkBlock(
    attributes: Readonly<Record<string, Attribute>> | undefined,
    blockTypes: Block["blockTypes"],
    value: Value,
    credentials: boolean,
  ): void {
    if (value.isNull() || !value.isKnown() || value.type.kind !== "object") return;
    for (const [name, attr] of Object.entries(attributes ?? {})) {
      if (!value.hasAttr(name)) continue;
      const v = value.getAttr(name);
      if (attr.sensitive === true || attr.writeOnly === true || (credentials && CREDENTIAL_NAME.test(name))) this.#collect(v);
      else if (attr.nestedType !== undefined) this.#walkNested(attr.nestedType.attributes, undefined, v, credentials);
    }
    for (const [name, nb] of Object.entries(blockTypes ?? {})) {
      if (value.hasAttr(name)) this.#walkNested(nb.block.attributes, nb.block.blockTypes, value.getAttr(name), credentials);
    }
  }

  /** A nested block or nested attribute value: one object, or a collection of them. */
  #walkNested(attributes: Readonly<Record<string, Attribute>> | undefined, blockTypes: Block["blockTypes"], value: Value, credentials: boolean): void {
    if (value.isNull() || !value.isKnown()) return;
    switch (value.type.kind) {
      case "object":
        this.#walkBlock(attributes, blockTypes, value, credentials);
        return;
      case "list":
      case "set":
      case "tuple":
        for (const e of value.elements()) this.#walkNested(attributes, blockTypes, e, credentials);
        return;
      case "map":
        for (const e of value.entries().values()) this.#walkNested(attributes, blockTypes, e, credentials);
        return;
      default:
        return;
    }
  }

  /** Every string inside a value. */
  #collect(value: Value): void {
    if (value.isNull() || !value.isKnown()) return;
    switch (value.type.kind) {
      case "string":
        this.add(value.asString());
        return;
      case "list":
      case "set":
      case "tuple":
        for (const e of value.elements()) this.#collect(e);
        return;
      case "map":
        for (const e of value.entries().values()) this.#collect(e);
        return;
      case "object":
        for (const e of Object.values(value.attributes())) this.#collect(e);
        return;
      default:
        return;
    }
  }
}

function attributesHaveSensitive(attributes: Readonly<Record<string, Attribute>> | undefined): boolean {
  return Object.values(attributes ?? {}).some(
    (a) => a.sensitive === true || a.writeOnly === true || (a.nestedType !== undefined && attributesHaveSensitive(a.nestedType.attributes)),
  );
}

function replaceAll(text: string, secret: string): string {
  return text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/**
 * The lines of a stderr tail fit for an error: warnings, errors and plain lines without a
 * level (a crash report, go-plugin's own messages) are kept; TRACE, DEBUG and INFO lines
 * (where SDKs log HTTP requests and bodies) are left out. The full tail goes to the logger.
 *
 * @internal
 */
export function reportableTail(tail: string): string {
  return tail
    .split("\n")
    .filter((line) => !isQuietLine(line))
    .join("\n");
}

function isQuietLine(line: string): boolean {
  const t = line.trimStart();
  if (t.startsWith("{")) {
    const m = /"@level"\s*:\s*"([a-zA-Z]+)"/.exec(t);
    return m !== null && QUIET_JSON_LEVELS.has(m[1]!.toLowerCase());
  }
  return QUIET_PLAIN.test(t);
}
