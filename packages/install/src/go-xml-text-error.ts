/** Whether a code point is in XML's Char production (Go's `isInCharacterRange`). */
function inCharacterRange(r: number): boolean {
  return r === 0x09 || r === 0x0a || r === 0x0d || (r >= 0x20 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd) || (r >= 0x10000 && r <= 0x10ffff);
}

/** Go's `isNameByte`. */
function isNameByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === 0x3a || b === 0x2e || b === 0x2d;
}

/** Decodes one UTF-8 sequence at `i` as Go's `utf8.DecodeRune` does: its code point, or -1 for an invalid byte (size 1). */
function decodeRune(buf: Uint8Array, i: number): { r: number; size: number } {
  const b0 = buf[i]!;
  if (b0 < 0x80) return { r: b0, size: 1 };
  const need = b0 >= 0xc2 && b0 <= 0xdf ? 1 : b0 >= 0xe0 && b0 <= 0xef ? 2 : b0 >= 0xf0 && b0 <= 0xf4 ? 3 : -1;
  if (need < 0 || i + need >= buf.length) return { r: -1, size: 1 };
  // second-byte ranges that exclude overlong forms, surrogates and values above U+10FFFF
  const lo = b0 === 0xe0 ? 0xa0 : b0 === 0xf0 ? 0x90 : 0x80;
  const hi = b0 === 0xed ? 0x9f : b0 === 0xf4 ? 0x8f : 0xbf;
  const b1 = buf[i + 1]!;
  if (b1 < lo || b1 > hi) return { r: -1, size: 1 };
  let r = need === 1 ? b0 & 0x1f : need === 2 ? b0 & 0x0f : b0 & 0x07;
  r = (r << 6) | (b1 & 0x3f);
  for (let k = 2; k <= need; k++) {
    const b = buf[i + k]!;
    if (b < 0x80 || b > 0xbf) return { r: -1, size: 1 };
    r = (r << 6) | (b & 0x3f);
  }
  return { r, size: need + 1 };
}

/**
 * The error Go's `encoding/xml` decoder (not strict, as go-getter's `parseMeta` uses it)
 * gives for the text at the start of a body, before its first `<` — what terraform reports
 * when an HTTP module source answers with something that is not HTML, such as a plain tar
 * archive: `XML syntax error on line 4: illegal character code U+0000`. `undefined` when that
 * text is well formed (or the body starts with a tag): the rest of the document is then
 * read as HTML for its `terraform-get` meta tag.
 */
export function goXmlLeadingTextError(body: Uint8Array): string | undefined {
  let line = 1;
  const err = (msg: string): string => `XML syntax error on line ${line}: ${msg}`;
  // what the decoder keeps of the text (never longer than what it read)
  const out = new Uint8Array(body.length);
  let n = 0;
  const push = (...bs: number[]): void => {
    for (const x of bs) out[n++] = x;
  };
  let i = 0;
  let b0 = 0;
  let b1 = 0;
  // `getc`: the next byte or undefined at the end, counting lines
  const getc = (): number | undefined => {
    if (i >= body.length) return undefined;
    const b = body[i++]!;
    if (b === 0x0a) line++;
    return b;
  };
  const ungetc = (b: number): void => {
    i--;
    if (b === 0x0a) line--;
  };
  for (;;) {
    const b = getc();
    if (b === undefined) break;
    if (b0 === 0x5d && b1 === 0x5d && b === 0x3e) return err("unescaped ]]> not in CDATA section");
    if (b === 0x3c) break;
    if (b === 0x26) {
      // an entity: only running out of input while reading it is an error (not strict)
      const before = n;
      push(b);
      let c = getc();
      if (c === undefined) return err("unexpected EOF");
      let text: number[] | undefined;
      if (c === 0x23) {
        push(c);
        c = getc();
        if (c === undefined) return err("unexpected EOF");
        let base = 10;
        if (c === 0x78) {
          base = 16;
          push(c);
          c = getc();
          if (c === undefined) return err("unexpected EOF");
        }
        let digits = "";
        const isDigit = (x: number): boolean => (x >= 0x30 && x <= 0x39) || (base === 16 && ((x >= 0x61 && x <= 0x66) || (x >= 0x41 && x <= 0x46)));
        while (isDigit(c)) {
          digits += String.fromCharCode(c);
          push(c);
          c = getc();
          if (c === undefined) return err("unexpected EOF");
        }
        if (c !== 0x3b) ungetc(c);
        else {
          push(c);
          const n = digits === "" ? NaN : parseInt(digits, base);
          if (Number.isFinite(n) && n <= 0x10ffff) text = [...Buffer.from(String.fromCodePoint(n >= 0xd800 && n <= 0xdfff ? 0xfffd : n), "utf8")];
        }
      } else {
        ungetc(c);
        // readName
        let name = "";
        c = getc();
        if (c === undefined) return err("unexpected EOF");
        if (c < 0x80 && !isNameByte(c)) ungetc(c);
        else {
          name += String.fromCharCode(c);
          push(c);
          for (;;) {
            c = getc();
            if (c === undefined) return err("unexpected EOF");
            if (c < 0x80 && !isNameByte(c)) {
              ungetc(c);
              break;
            }
            name += String.fromCharCode(c);
            push(c);
          }
        }
        c = getc();
        if (c === undefined) return err("unexpected EOF");
        if (c !== 0x3b) ungetc(c);
        else {
          push(c);
          const known: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, apos: 0x27, quot: 0x22 };
          if (Object.hasOwn(known, name)) text = [known[name]!];
        }
      }
      if (text !== undefined) {
        n = before;
        push(...text);
      }
      b0 = 0;
      b1 = 0;
      continue;
    }
    if (b === 0x0d) push(0x0a);
    else if (!(b1 === 0x0d && b === 0x0a)) push(b);
    b0 = b1;
    b1 = b;
  }
  const data = out.subarray(0, n);
  for (let k = 0; k < data.length; ) {
    const { r, size } = decodeRune(data, k);
    if (r < 0) return err("invalid UTF-8");
    k += size;
    if (!inCharacterRange(r)) return err(`illegal character code U+${r.toString(16).toUpperCase().padStart(4, "0")}`);
  }
  return undefined;
}
