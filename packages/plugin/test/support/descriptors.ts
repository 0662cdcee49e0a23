/**
 * Test support: finding the FileDescriptorProtos that Go binaries carry, and comparing
 * a foreign descriptor set with magma's own generated descriptors.
 *
 * Used by `test/proto-conformance.test.ts` only; nothing here is part of the package API.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";

/** Thrown when a binary does not hold the descriptor a test expects. */
export class DescriptorExtractionError extends Error {
  /** Stable code for `switch`/assertions. */
  readonly code = "descriptor_extraction";
  /** The descriptor file name that was searched for. */
  readonly fileName: string;

  constructor(fileName: string, message: string) {
    super(`[descriptor_extraction] ${fileName}: ${message}`);
    this.name = "DescriptorExtractionError";
    this.fileName = fileName;
  }
}

/** One FileDescriptorProto found inside a binary, with where it was found. */
export type EmbeddedDescriptor = {
  /** Byte offset of the descriptor's first byte in the binary. */
  readonly offset: number;
  /** The raw serialized descriptor bytes. */
  readonly bytes: Uint8Array;
  /** The parsed descriptor. */
  readonly file: FileDescriptorProto;
};

// FileDescriptorProto's top-level fields and their wire types (0 = varint, 2 = length
// delimited): name 1, package 2, dependency 3, message_type 4, enum_type 5, service 6,
// extension 7, options 8, source_code_info 9, public_dependency 10, weak_dependency 11,
// syntax 12, edition 14.
const FILE_FIELD_WIRE_TYPES: ReadonlyMap<number, number> = new Map([
  [1, 2],
  [2, 2],
  [3, 2],
  [4, 2],
  [5, 2],
  [6, 2],
  [7, 2],
  [8, 2],
  [9, 2],
  [10, 0],
  [11, 0],
  [12, 2],
  [14, 0],
]);

/** Reads a base-128 varint at `pos`; undefined when it runs off the end or is too long. */
function readVarint(buf: Uint8Array, pos: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    const b = buf[pos + i];
    if (b === undefined) return undefined;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return { value, next: pos + i + 1 };
  }
  return undefined;
}

/**
 * Finds where a FileDescriptorProto that starts at `start` ends: walks top-level fields
 * while each one is a FileDescriptorProto field with its proper wire type, its field
 * number does not decrease (protoc writes fields in ascending order) and its payload fits
 * in the buffer.
 */
function descriptorEnd(buf: Uint8Array, start: number): number {
  let pos = start;
  let lastField = 0;
  for (;;) {
    const tag = readVarint(buf, pos);
    if (tag === undefined) return pos;
    const field = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    if (FILE_FIELD_WIRE_TYPES.get(field) !== wireType || field < lastField) return pos;
    const payload = readVarint(buf, tag.next);
    if (payload === undefined) return pos;
    const next = wireType === 0 ? payload.next : payload.next + payload.value;
    if (next > buf.length) return pos;
    lastField = field;
    pos = next;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Finds every serialized FileDescriptorProto named `fileName` inside `binary`.
 *
 * A descriptor starts with its name field: byte 0x0a, the name's length, the name. Each
 * occurrence of the name so prefixed is walked field by field (see `descriptorEnd`),
 * parsed, and kept only if it re-encodes to exactly the same bytes. Occurrences that are
 * mere references (a dependency list, a type name) are skipped.
 *
 * @throws DescriptorExtractionError when `fileName` is longer than 127 bytes.
 */
export function findEmbeddedDescriptors(binary: Uint8Array, fileName: string): EmbeddedDescriptor[] {
  const name = new TextEncoder().encode(fileName);
  if (name.length > 127) {
    throw new DescriptorExtractionError(fileName, "names longer than 127 bytes are not supported");
  }
  const haystack = Buffer.from(binary.buffer, binary.byteOffset, binary.byteLength);
  const found: EmbeddedDescriptor[] = [];
  for (let at = haystack.indexOf(name); at >= 0; at = haystack.indexOf(name, at + 1)) {
    if (at < 2 || binary[at - 2] !== 0x0a || binary[at - 1] !== name.length) continue;
    const start = at - 2;
    const bytes = binary.subarray(start, descriptorEnd(binary, start));
    let file: FileDescriptorProto;
    try {
      file = fromBinary(FileDescriptorProtoSchema, bytes);
    } catch {
      continue;
    }
    if (file.name !== fileName || !sameBytes(toBinary(FileDescriptorProtoSchema, file), bytes)) continue;
    found.push({ offset: start, bytes: bytes.slice(), file });
  }
  return found;
}

/**
 * Like `findEmbeddedDescriptors`, but insists on exactly one distinct descriptor that
 * declares `service`.
 *
 * @throws DescriptorExtractionError when none, or several differing ones, are found.
 */
export function extractEmbeddedDescriptor(
  binary: Uint8Array,
  fileName: string,
  service?: string,
): EmbeddedDescriptor {
  const all = findEmbeddedDescriptors(binary, fileName).filter(
    (d) => service === undefined || d.file.service.some((s) => s.name === service),
  );
  const first = all[0];
  if (first === undefined) {
    throw new DescriptorExtractionError(
      fileName,
      service === undefined ? "no descriptor found" : `no descriptor declaring service ${service} found`,
    );
  }
  if (all.some((d) => !sameBytes(d.bytes, first.bytes))) {
    throw new DescriptorExtractionError(
      fileName,
      `${all.length} differing descriptors found (offsets ${all.map((d) => d.offset).join(", ")})`,
    );
  }
  return first;
}

/** What comparing a foreign descriptor set ("theirs") with magma's ("ours") found. */
export type ConformanceReport = {
  /** Wire disagreements: any entry here means our .proto files are wrong. */
  readonly problems: string[];
  /** Types with a different name but an identical wire shape, as `theirs -> ours`. */
  readonly renamed: string[];
  /** Fields, enum values and methods only we have (newer protocol minors); informational. */
  readonly onlyOurs: string[];
  /** How many of their messages, fields and methods were checked. */
  readonly checked: { messages: number; fields: number; enums: number; methods: number };
};

type FieldInfo = Pick<FieldDescriptorProto, "name" | "number" | "type" | "label" | "typeName" | "proto3Optional"> & {
  /** The oneof the field belongs to, unless that oneof only encodes proto3 `optional`. */
  readonly realOneof: string | undefined;
};
type MessageInfo = { readonly fields: ReadonlyMap<number, FieldInfo> };
type EnumInfo = { readonly values: ReadonlyMap<number, string> };
type MethodInfo = {
  readonly input: string;
  readonly output: string;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
};
type Index = {
  readonly messages: Map<string, MessageInfo>;
  readonly enums: Map<string, EnumInfo>;
  readonly services: Map<string, Map<string, MethodInfo>>;
};

function indexEnum(index: Index, fullName: string, e: EnumDescriptorProto): void {
  index.enums.set(fullName, { values: new Map(e.value.map((v) => [v.number, v.name])) });
}

function indexMessage(index: Index, fullName: string, m: DescriptorProto): void {
  const fields = new Map<number, FieldInfo>();
  for (const f of m.field) {
    const oneof = f.oneofIndex !== undefined && !f.proto3Optional ? m.oneofDecl[f.oneofIndex]?.name : undefined;
    fields.set(f.number, {
      name: f.name,
      number: f.number,
      type: f.type,
      label: f.label,
      typeName: f.typeName,
      proto3Optional: f.proto3Optional,
      realOneof: oneof,
    });
  }
  index.messages.set(fullName, { fields });
  for (const n of m.nestedType) indexMessage(index, `${fullName}.${n.name}`, n);
  for (const e of m.enumType) indexEnum(index, `${fullName}.${e.name}`, e);
}

/** Flattens descriptor files into fully qualified messages, enums and services. */
function indexFiles(files: readonly FileDescriptorProto[]): Index {
  const index: Index = { messages: new Map(), enums: new Map(), services: new Map() };
  for (const file of files) {
    const prefix = file.package === "" ? "" : `${file.package}.`;
    for (const m of file.messageType) indexMessage(index, prefix + m.name, m);
    for (const e of file.enumType) indexEnum(index, prefix + e.name, e);
    for (const s of file.service) {
      const methods = new Map<string, MethodInfo>();
      for (const m of s.method) {
        methods.set(m.name, {
          input: m.inputType.replace(/^\./, ""),
          output: m.outputType.replace(/^\./, ""),
          clientStreaming: m.clientStreaming,
          serverStreaming: m.serverStreaming,
        });
      }
      index.services.set(prefix + s.name, methods);
    }
  }
  return index;
}

function typeName(t: FieldDescriptorProto_Type): string {
  return FieldDescriptorProto_Type[t] ?? `type#${t}`;
}

function labelName(l: FieldDescriptorProto_Label): string {
  return FieldDescriptorProto_Label[l] ?? `label#${l}`;
}

/**
 * Compares `theirs` (descriptors from a real binary) with `ours` (magma's generated
 * descriptors), by wire facts:
 *
 * - every message, enum and service method of theirs must exist in ours, matched by full
 *   name; a referenced type that exists under another name in ours is accepted when its
 *   wire shape is identical (reported in `renamed`);
 * - every field of theirs must exist in ours under the same number with the same name,
 *   type, label, `optional` presence, real oneof and (shape of the) referenced type;
 * - every enum value of theirs must exist in ours with the same number and name;
 * - every method of theirs must have the same request/response types and streaming.
 *
 * Things only we have are listed in `onlyOurs` and are not problems: protocol minors only
 * ever add.
 */
export function compareDescriptors(
  theirs: readonly FileDescriptorProto[],
  ours: readonly FileDescriptorProto[],
): ConformanceReport {
  const t = indexFiles(theirs);
  const o = indexFiles(ours);
  const problems: string[] = [];
  const onlyOurs: string[] = [];
  const renamed = new Map<string, string>();
  const checked = { messages: 0, fields: 0, enums: 0, methods: 0 };

  // Whether their type `a` and our type `b` have the same wire shape (recursively).
  const shapeCache = new Map<string, boolean>();
  const sameShape = (a: string, b: string): boolean => {
    const key = `${a}\u0000${b}`;
    const cached = shapeCache.get(key);
    if (cached !== undefined) return cached;
    shapeCache.set(key, true); // assume equal while recursing (cycles)
    let result: boolean;
    const ta = t.enums.get(a);
    const ob = o.enums.get(b);
    if (ta !== undefined || ob !== undefined) {
      result =
        ta !== undefined &&
        ob !== undefined &&
        ta.values.size === ob.values.size &&
        [...ta.values].every(([n, name]) => ob.values.get(n) === name);
    } else {
      const ma = t.messages.get(a);
      const mb = o.messages.get(b);
      result =
        ma !== undefined &&
        mb !== undefined &&
        ma.fields.size === mb.fields.size &&
        [...ma.fields].every(([n, fa]) => {
          const fb = mb.fields.get(n);
          return fb !== undefined && fieldDifference(fa, fb) === undefined;
        });
    }
    shapeCache.set(key, result);
    return result;
  };

  // Describes how their field `a` differs from our field `b`, or undefined if it does not.
  const fieldDifference = (a: FieldInfo, b: FieldInfo): string | undefined => {
    if (a.name !== b.name) return `name ${a.name} vs ours ${b.name}`;
    if (a.type !== b.type) return `type ${typeName(a.type)} vs ours ${typeName(b.type)}`;
    if (a.label !== b.label) return `label ${labelName(a.label)} vs ours ${labelName(b.label)}`;
    if (a.proto3Optional !== b.proto3Optional) {
      return `proto3 optional ${a.proto3Optional} vs ours ${b.proto3Optional}`;
    }
    if (a.realOneof !== b.realOneof) return `oneof ${a.realOneof ?? "-"} vs ours ${b.realOneof ?? "-"}`;
    const ta = a.typeName.replace(/^\./, "");
    const tb = b.typeName.replace(/^\./, "");
    if (ta !== tb) {
      if (!sameShape(ta, tb)) return `type ${ta} vs ours ${tb} (different wire shape)`;
      renamed.set(ta, tb);
    }
    return undefined;
  };

  for (const [name, theirMessage] of t.messages) {
    const ourMessage = o.messages.get(name);
    if (ourMessage === undefined) continue; // handled below, after renames are known
    checked.messages++;
    for (const [number, theirField] of theirMessage.fields) {
      checked.fields++;
      const ourField = ourMessage.fields.get(number);
      if (ourField === undefined) {
        problems.push(`${name}: field ${theirField.name} = ${number} is missing in ours`);
        continue;
      }
      const diff = fieldDifference(theirField, ourField);
      if (diff !== undefined) problems.push(`${name}: field ${number}: ${diff}`);
    }
    for (const [number, ourField] of ourMessage.fields) {
      if (!theirMessage.fields.has(number)) onlyOurs.push(`${name}.${ourField.name} = ${number}`);
    }
  }

  for (const [name, theirEnum] of t.enums) {
    const ourEnum = o.enums.get(name);
    if (ourEnum === undefined) continue;
    checked.enums++;
    for (const [number, value] of theirEnum.values) {
      const ours = ourEnum.values.get(number);
      if (ours !== value) problems.push(`${name}: value ${value} = ${number} is ${ours ?? "missing"} in ours`);
    }
    for (const [number, value] of ourEnum.values) {
      if (!theirEnum.values.has(number)) onlyOurs.push(`${name}.${value} = ${number}`);
    }
  }

  for (const [service, theirMethods] of t.services) {
    const ourMethods = o.services.get(service);
    if (ourMethods === undefined) {
      problems.push(`service ${service} is missing in ours`);
      continue;
    }
    for (const [method, theirs] of theirMethods) {
      checked.methods++;
      const ours = ourMethods.get(method);
      if (ours === undefined) {
        problems.push(`${service}/${method} is missing in ours`);
        continue;
      }
      for (const side of ["input", "output"] as const) {
        if (theirs[side] === ours[side]) continue;
        if (sameShape(theirs[side], ours[side])) renamed.set(theirs[side], ours[side]);
        else problems.push(`${service}/${method}: ${side} ${theirs[side]} vs ours ${ours[side]}`);
      }
      if (theirs.clientStreaming !== ours.clientStreaming || theirs.serverStreaming !== ours.serverStreaming) {
        problems.push(`${service}/${method}: streaming differs`);
      }
    }
    for (const method of ourMethods.keys()) {
      if (!theirMethods.has(method)) onlyOurs.push(`${service}/${method}`);
    }
  }

  // Their types that we lack by name must be explained by a verified rename.
  for (const name of [...t.messages.keys(), ...t.enums.keys()]) {
    if (o.messages.has(name) || o.enums.has(name)) continue;
    const ourName = renamed.get(name);
    if (ourName === undefined) problems.push(`type ${name} is missing in ours`);
  }

  return {
    problems,
    renamed: [...renamed].map(([a, b]) => `${a} -> ${b}`).sort(),
    onlyOurs: onlyOurs.sort(),
    checked,
  };
}
