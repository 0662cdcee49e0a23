import { createHash } from "node:crypto";
import type { Diag } from "@magma/provider-api";

/** The most validations remembered per connection. */
const DEFAULT_MAX_ENTRIES = 1000;
/** The most bytes (keys and diagnostics, estimated as UTF-16) remembered per connection. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The clean (error-free) validations of one connection, by kind, type name and a SHA-256
 * digest of the configuration's bytes (never the bytes themselves: 300 distinct 1 MiB
 * configurations held 602 MiB when keyed by their hex). Bounded in entries and in bytes;
 * the oldest entries go first.
 *
 * @internal
 */
export class ValidationCache {
  readonly #entries = new Map<string, { readonly diags: readonly Diag[]; readonly bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(limits: { readonly maxEntries?: number; readonly maxBytes?: number } = {}) {
    this.#maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** How many validations are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The estimated bytes held (keys and diagnostics). */
  get retainedBytes(): number {
    return this.#bytes;
  }

  /** The key of one validation: kind, type name and the digest of the configuration's bytes. */
  keyOf(kind: string, typeName: string, config: Uint8Array): string {
    return `${kind}:${typeName}:${createHash("sha256").update(config).digest("base64")}`;
  }

  get(key: string): readonly Diag[] | undefined {
    return this.#entries.get(key)?.diags;
  }

  set(key: string, diags: readonly Diag[]): void {
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.bytes;
    }
    const bytes = 2 * (key.length + diags.reduce((n, d) => n + d.summary.length + (d.detail?.length ?? 0) + 64, 0));
    if (bytes > this.#maxBytes) return; // never worth evicting everything for
    while (this.#entries.size > 0 && (this.#entries.size >= this.#maxEntries || this.#bytes + bytes > this.#maxBytes)) {
      const [oldestKey, oldest] = this.#entries.entries().next().value!;
      this.#entries.delete(oldestKey);
      this.#bytes -= oldest.bytes;
    }
    this.#entries.set(key, { diags, bytes });
    this.#bytes += bytes;
  }
}

/**
 * Validations remembered by the encoded bytes themselves: the bytes of a value sent before
 * are the same object, so a repeat is found without hashing. Held weakly (gone with the bytes).
 *
 * @internal
 */
export class ValidationsByBytes {
  readonly #byBytes = new WeakMap<Uint8Array, Map<string, readonly Diag[]>>();

  /** The remembered diagnostics of the validation `key` (kind and type name) of these bytes, or undefined. */
  get(bytes: Uint8Array, key: string): readonly Diag[] | undefined {
    return this.#byBytes.get(bytes)?.get(key);
  }

  /** Remembers the diagnostics of validation `key` of these bytes, and returns them. */
  remember(bytes: Uint8Array, key: string, diags: readonly Diag[]): readonly Diag[] {
    let m = this.#byBytes.get(bytes);
    if (m === undefined) this.#byBytes.set(bytes, (m = new Map()));
    m.set(key, diags);
    return diags;
  }
}
