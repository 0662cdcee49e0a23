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

/** {@link writeStateFile} as a string. */
export function formatStateFile(file: StateFile, options: WriteStateFileOptions = {}): string {
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
          out.push(j === 0 ? "\n        {" : ",\n        {");
          writeInstance(o, out);
          out.push("\n        }");
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

function sortInstances(list: readonly InstanceObjectState[]): InstanceObjectState[] {
  return [...list].sort((a, b) => compareInstanceKeys(a.indexKey, b.indexKey) || compareBytes(a.deposed ?? "", b.deposed ?? ""));
}
