/** A value serialisable by {@link toXml}: scalars become text, arrays become `<item>` lists. */
export type XmlValue = string | number | boolean | null | undefined | XmlFields | readonly XmlValue[];

/** An element's children in document order; `undefined`/`null` children are left out. */
export interface XmlFields {
  readonly [name: string]: XmlValue;
}

/** Escapes text for an XML element body (`&`, `<`, `>`), as AWS does; quotes are left alone. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes text for a double-quoted XML attribute value. */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/"/g, "&quot;");
}

/**
 * Serialises `fields` as the children of a `<root xmlns="…">` element, EC2 style: arrays
 * are written as a sequence of `<item>` elements inside the named element.
 */
export function toXml(root: string, namespace: string | undefined, fields: XmlFields): string {
  const ns = namespace === undefined ? "" : ` xmlns="${escapeXmlAttribute(namespace)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${ns}>${children(fields)}</${root}>`;
}

function children(fields: XmlFields): string {
  let out = "";
  for (const [name, value] of Object.entries(fields)) out += element(name, value);
  return out;
}

function element(name: string, value: XmlValue): string {
  if (value === undefined || value === null) return "";
  return `<${name}>${body(value)}</${name}>`;
}

function body(value: XmlValue): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return escapeXml(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (isList(value)) return value.map((v) => element("item", v)).join("");
  return children(value);
}

function isList(v: XmlFields | readonly XmlValue[]): v is readonly XmlValue[] {
  return Array.isArray(v);
}
