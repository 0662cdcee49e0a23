import { compareBytes, compareInstanceKeys } from "./address/instance-key.js";
import { formatModuleInstance } from "./address/module-address.js";
import { formatProviderConfig } from "./address/provider-address.js";
import { appendAttributes } from "./internal/canonical-attributes.js";
import { appendIndented, goQuote } from "./internal/go-json.js";
import { TERRAFORM_VERSION, type InstanceObjectState, type ResourceState, type StateFile } from "./state-file.js";

/** Options of {@link writeStateFile}. */
export interface WriteStateFileOptions {
  /** The `terraform_version` to write. Default {@link TERRAFORM_VERSION} (Terraform, too, always writes its own). */
  readonly terraformVersion?: string;
}

const encoder = new TextEncoder();

/**
 * Writes a state as Terraform 1.11 writes `terraform.tfstate`, byte for byte: Go's
 * `json.MarshalIndent` with two spaces and a trailing newline, keys in Terraform's order,
 * resources sorted by module, mode, type and name, instances by key then deposed key,
 * outputs by name, `<`/`>`/`&` escaped as Go does.
 */
export function writeStateFile(file: StateFile, options: WriteStateFileOptions = {}): Uint8Array {
  return encoder.encode(formatStateFile(file, options));
}

/**
 * Formats states as {@link formatStateFile} does, remembering the text of every instance
 * object it formatted (keyed by the object, checked against its fields each time): formatting
 * a state again after a few objects changed formats only those, so writing the state after
 * every object of an apply costs the changed objects plus a copy of the rest. Holds the
 * objects weakly.
 */
export class StateFormatter {
  readonly #texts = new WeakMap<InstanceObjectState, CachedInstance>();
  #formatted = 0;

  /** How many instance objects this formatter has formatted (not taken from its memory) so far. */
  get objectsFormatted(): number {
    return this.#formatted;
  }

  /** The state's text, as {@link formatStateFile}. */
  format(file: StateFile, options: WriteStateFileOptions = {}): string {
    return formatWith(file, options, (o) => this.#text(o));
  }

  #text(o: InstanceObjectState): string {
    const c = this.#texts.get(o);
    if (c !== undefined && sameInstance(c, o)) return c.text;
    const out: string[] = [];
    writeInstance(o, out);
    const text = out.join("");
    this.#formatted++;
    // Legacy flatmap objects are rare and their map is mutable: not remembered.
    if (o.attributesFlat === undefined || o.attributesFlat.size === 0) this.#texts.set(o, remember(o, text));
    return text;
  }
}

/** What an instance object held when its text was made. */
interface CachedInstance {
  readonly indexKey: InstanceObjectState["indexKey"];
  readonly deposed: string | undefined;
  readonly tainted: boolean;
  readonly schemaVersion: number;
  readonly attributesJson: string | undefined;
  readonly sensitiveAttributesJson: string;
  readonly private: Uint8Array | undefined;
  readonly dependencies: readonly string[];
  readonly createBeforeDestroy: boolean;
  readonly text: string;
}

function remember(o: InstanceObjectState, text: string): CachedInstance {
  return {
    indexKey: o.indexKey,
    deposed: o.deposed,
    tainted: o.tainted,
    schemaVersion: o.schemaVersion,
    attributesJson: o.attributesJson,
    sensitiveAttributesJson: o.sensitiveAttributesJson,
    private: o.private === undefined ? undefined : Uint8Array.from(o.private),
    dependencies: [...o.dependencies],
    createBeforeDestroy: o.createBeforeDestroy,
    text,
  };
}

function sameInstance(c: CachedInstance, o: InstanceObjectState): boolean {
  if (
    c.indexKey !== o.indexKey ||
    c.deposed !== o.deposed ||
    c.tainted !== o.tainted ||
    c.schemaVersion !== o.schemaVersion ||
    c.attributesJson !== o.attributesJson ||
    c.sensitiveAttributesJson !== o.sensitiveAttributesJson ||
    c.createBeforeDestroy !== o.createBeforeDestroy ||
    (o.attributesFlat !== undefined && o.attributesFlat.size > 0) ||
    c.dependencies.length !== o.dependencies.length
  ) {
    return false;
  }
  for (let i = 0; i < c.dependencies.length; i++) if (c.dependencies[i] !== o.dependencies[i]) return false;
  if (c.private === undefined || o.private === undefined) return c.private === o.private;
  return Buffer.from(c.private.buffer, c.private.byteOffset, c.private.byteLength).equals(o.private);
}

const shared = new StateFormatter();

/** {@link writeStateFile} as a string. */
export function formatStateFile(file: StateFile, options: WriteStateFileOptions = {}): string {
  return shared.format(file, options);
}

function formatWith(file: StateFile, options: WriteStateFileOptions, instanceText: (o: InstanceObjectState) => string): string {
  const out: string[] = [];
  out.push(
    `{\n  "version": 4,\n  "terraform_version": ${goQuote(options.terraformVersion ?? TERRAFORM_VERSION)},\n  "serial": ${file.serial},\n  "lineage": ${goQuote(file.lineage)},\n  "outputs": `,
  );
  const names = [...file.outputs.keys()].sort(compareBytes);
  if (names.length === 0) out.push("{}");
  else {
    out.push("{");
    names.forEach((name, i) => {
      const o = file.outputs.get(name)!;
      out.push(i === 0 ? "\n    " : ",\n    ", goQuote(name), ': {\n      "value": ');
      appendIndented(o.valueJson, 3, out);
      out.push(',\n      "type": ');
      appendIndented(o.typeJson, 3, out);
      out.push(o.sensitive ? ',\n      "sensitive": true\n    }' : "\n    }");
    });
    out.push("\n  }");
  }
  out.push(',\n  "resources": ');
  const resources = sortResources(file.resources);
  if (resources.length === 0) out.push("[]");
  else {
    out.push("[");
    resources.forEach((rs, i) => {
      out.push(i === 0 ? "\n    {" : ",\n    {");
      if (rs.module.length > 0) out.push('\n      "module": ', goQuote(formatModuleInstance(rs.module)), ",");
      out.push(
        '\n      "mode": ',
        goQuote(rs.mode),
        ',\n      "type": ',
        goQuote(rs.type),
        ',\n      "name": ',
        goQuote(rs.name),
        ',\n      "provider": ',
        goQuote(formatProviderConfig(rs.provider)),
        ',\n      "instances": ',
      );
      const instances = sortInstances(rs.instances);
      if (instances.length === 0) out.push("[]");
      else {
        out.push("[");
        instances.forEach((o, j) => {
          out.push(j === 0 ? "\n        {" : ",\n        {", instanceText(o), "\n        }");
        });
        out.push("\n      ]");
      }
      out.push("\n    }");
    });
    out.push("\n  ]");
  }
  out.push(',\n  "check_results": ');
  const checks = file.checkResults;
  if (checks === undefined || checks.length === 0) out.push("null");
  else {
    out.push("[");
    checks.forEach((c, i) => {
      out.push(
        i === 0 ? "\n    {" : ",\n    {",
        '\n      "object_kind": ',
        goQuote(c.objectKind),
        ',\n      "config_addr": ',
        goQuote(c.configAddr),
        ',\n      "status": ',
        goQuote(c.status),
        ',\n      "objects": ',
      );
      if (c.objects.length === 0) out.push("null");
      else {
        out.push("[");
        c.objects.forEach((o, j) => {
          out.push(j === 0 ? "\n        {" : ",\n        {", '\n          "object_addr": ', goQuote(o.objectAddr), ',\n          "status": ', goQuote(o.status));
          if (o.failureMessages.length > 0) {
            out.push(',\n          "failure_messages": [');
            o.failureMessages.forEach((m, k) => out.push(k === 0 ? "\n            " : ",\n            ", goQuote(m)));
            out.push("\n          ]");
          }
          out.push("\n        }");
        });
        out.push("\n      ]");
      }
      out.push("\n    }");
    });
    out.push("\n  ]");
  }
  out.push("\n}\n");
  return out.join("");
}

const IND = "\n          ";

function writeInstance(o: InstanceObjectState, out: string[]): void {
  let first = true;
  const key = (k: string): void => {
    out.push(first ? IND : "," + IND, k);
    first = false;
  };
  if (o.indexKey !== undefined) {
    key('"index_key": ');
    out.push(typeof o.indexKey === "number" ? String(o.indexKey) : goQuote(o.indexKey));
  }
  if (o.tainted) {
    key('"status": "tainted"');
  }
  if (o.deposed !== undefined && o.deposed !== "") {
    key('"deposed": ');
    out.push(goQuote(o.deposed));
  }
  key('"schema_version": ');
  out.push(String(o.schemaVersion));
  if (o.attributesJson !== undefined && o.attributesJson !== "") {
    key('"attributes": ');
    appendAttributes(o, o.attributesJson, 5, out);
  }
  if (o.attributesFlat !== undefined && o.attributesFlat.size > 0) {
    key('"attributes_flat": {');
    const keys = [...o.attributesFlat.keys()].sort(compareBytes);
    keys.forEach((k, i) => out.push(i === 0 ? IND + "  " : "," + IND + "  ", goQuote(k), ": ", goQuote(o.attributesFlat!.get(k)!)));
    out.push(IND + "}");
  }
  key('"sensitive_attributes": ');
  appendIndented(o.sensitiveAttributesJson === "" ? "[]" : o.sensitiveAttributesJson, 5, out);
  if (o.private !== undefined && o.private.length > 0) {
    key('"private": ');
    out.push('"', Buffer.from(o.private.buffer, o.private.byteOffset, o.private.byteLength).toString("base64"), '"');
  }
  if (o.dependencies.length > 0) {
    key('"dependencies": [');
    o.dependencies.forEach((d, i) => out.push(i === 0 ? IND + "  " : "," + IND + "  ", goQuote(d)));
    out.push(IND + "]");
  }
  if (o.createBeforeDestroy) key('"create_before_destroy": true');
}

function sortResources(list: readonly ResourceState[]): ResourceState[] {
  const keyed = list.map((rs) => ({ rs, module: formatModuleInstance(rs.module) }));
  keyed.sort(
    (a, b) =>
      compareBytes(a.module, b.module) || compareBytes(a.rs.mode, b.rs.mode) || compareBytes(a.rs.type, b.rs.type) || compareBytes(a.rs.name, b.rs.name),
  );
  return keyed.map((k) => k.rs);
}

function sortInstances(list: readonly InstanceObjectState[]): readonly InstanceObjectState[] {
  // Usually in order already (as read, or kept so by the apply): checked in one pass.
  let sorted = true;
  for (let i = 1; i < list.length && sorted; i++) sorted = compareInstance(list[i - 1]!, list[i]!) <= 0;
  if (sorted) return list;
  return [...list].sort(compareInstance);
}

function compareInstance(a: InstanceObjectState, b: InstanceObjectState): number {
  return compareInstanceKeys(a.indexKey, b.indexKey) || compareBytes(a.deposed ?? "", b.deposed ?? "");
}
