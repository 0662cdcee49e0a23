/** A position in a source file (HCL's `hcl.Pos`): 1-based line and column, 0-based byte offset (UTF-8). */
export interface SourcePos {
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column, counted in Unicode code points. */
  readonly column: number;
  /** 0-based offset in UTF-8 bytes from the start of the file. */
  readonly byte: number;
}

/** A range of source text (HCL's `hcl.Range`): the start is inclusive, the end exclusive. */
export interface SourceRange {
  /** The file name given to the parser. */
  readonly filename: string;
  readonly start: SourcePos;
  readonly end: SourcePos;
}

/**
 * Maps UTF-16 offsets in a source string to {@link SourcePos}itions. Built once per parsed
 * text; each lookup is a binary search over line starts.
 */
export class SourceMap {
  readonly filename: string;
  readonly text: string;
  /** A position the text starts at (non-zero for a template embedded in a JSON string). */
  private readonly base: SourcePos;
  private readonly lineStarts: number[];
  private readonly ascii: boolean;
  private lastLine = 0;
  /** UTF-8 byte offsets of the line starts (non-ASCII texts only). */
  private readonly lineBytes: number[] = [];
  /**
   * The last non-ASCII lookup (UTF-16 offset, column, byte): a later lookup on the same line at
   * or after it scans on from there, so that a long line costs linear time, not quadratic.
   */
  private cursor = { line: -1, i: 0, column: 1, byte: 0 };

  constructor(filename: string, text: string, base?: SourcePos) {
    this.filename = filename;
    this.text = text;
    this.base = base ?? { line: 1, column: 1, byte: 0 };
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    this.ascii = /^[\x00-\x7f]*$/.test(text);
    if (!this.ascii) {
      // One pass of utf8Length's loop over the whole text, noting the count at each line start.
      let n = 0;
      let k = 0;
      const starts = this.lineStarts;
      for (let j = 0; ; j++) {
        while (k < starts.length && starts[k]! <= j) {
          this.lineBytes.push(n);
          k++;
        }
        if (j >= text.length) break;
        const c = text.charCodeAt(j);
        if (c < 0x80) n += 1;
        else if (c < 0x800) n += 2;
        else if (c >= 0xd800 && c <= 0xdbff) {
          n += 4;
          j++;
        } else n += 3;
      }
    }
  }

  /** The position of UTF-16 offset `i`. */
  pos(i: number): SourcePos {
    const starts = this.lineStarts;
    let lo: number;
    // Parsers ask mostly in source order: try the line of the previous answer first.
    const last = this.lastLine;
    if (starts[last]! <= i && (last + 1 >= starts.length || starts[last + 1]! > i)) {
      lo = last;
    } else {
      lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= i) lo = mid;
        else hi = mid - 1;
      }
      this.lastLine = lo;
    }
    const ls = starts[lo]!;
    let column: number;
    let byte: number;
    if (this.ascii) {
      column = i - ls + 1;
      byte = i;
    } else {
      const cur = this.cursor;
      const from = cur.line === lo && cur.i <= i ? cur : { i: ls, column: 1, byte: this.lineBytes[lo]! };
      column = from.column;
      for (let j = from.i; j < i; j++) {
        const c = this.text.charCodeAt(j);
        if (c < 0xdc00 || c > 0xdfff) column++;
      }
      byte = from.byte + utf8Length(this.text, from.i, i);
      // Not after a high surrogate: utf8Length counted (and skipped) the unit at i with it.
      const prev = i > 0 ? this.text.charCodeAt(i - 1) : 0;
      if (prev < 0xd800 || prev > 0xdbff) this.cursor = { line: lo, i, column, byte };
    }
    if (lo === 0) return { line: this.base.line, column: this.base.column + column - 1, byte: this.base.byte + byte };
    return { line: this.base.line + lo, column, byte: this.base.byte + byte };
  }

  /**
   * The range between UTF-16 offsets `start` and `end`. Its positions are computed when first
   * read: parsers make a range for every node, and most are never looked at.
   */
  range(start: number, end: number): SourceRange {
    return new LazyRange(this, start, end);
  }
}

/** A {@link SourceRange} whose positions are computed on first use. @internal */
export class LazyRange implements SourceRange {
  /** @internal */
  readonly map: SourceMap;
  /** @internal */
  readonly s: number;
  /** @internal */
  readonly e: number;
  private startPos: SourcePos | undefined;
  private endPos: SourcePos | undefined;

  constructor(map: SourceMap, s: number, e: number) {
    this.map = map;
    this.s = s;
    this.e = e;
  }

  get filename(): string {
    return this.map.filename;
  }

  get start(): SourcePos {
    return (this.startPos ??= this.map.pos(this.s));
  }

  get end(): SourcePos {
    return (this.endPos ??= this.map.pos(this.e));
  }

  /** A plain object for JSON.stringify and structural comparison. */
  toJSON(): SourceRange {
    return plainRange(this);
  }
}

/** A copy of a range as a plain object (no lazy getters). */
export function plainRange(r: SourceRange): SourceRange {
  return { filename: r.filename, start: { ...r.start }, end: { ...r.end } };
}

/** The UTF-8 length of `s.slice(from, to)`. */
export function utf8Length(s: string, from: number, to: number): number {
  let n = 0;
  for (let j = from; j < to; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      j++;
    } else n += 3;
  }
  return n;
}

/** The smallest range covering both `a` and `b` (HCL's `hcl.RangeBetween`). */
export function rangeBetween(a: SourceRange, b: SourceRange): SourceRange {
  if (a instanceof LazyRange && b instanceof LazyRange && a.map === b.map) return new LazyRange(a.map, Math.min(a.s, b.s), Math.max(a.e, b.e));
  return { filename: a.filename, start: a.start.byte <= b.start.byte ? a.start : b.start, end: a.end.byte >= b.end.byte ? a.end : b.end };
}

/** `filename:line,column-column` as HCL prints a range (`main.tf:1,3-5`). */
export function formatRange(r: SourceRange): string {
  if (r.start.line === r.end.line) return `${r.filename}:${r.start.line},${r.start.column}-${r.end.column}`;
  return `${r.filename}:${r.start.line},${r.start.column}-${r.end.line},${r.end.column}`;
}

/**
 * Positions of a text embedded in another file, such as the template inside a JSON string:
 * offset `i` of the embedded text is offset `start + offsets[i]` of the file (`offsets` maps
 * past escape sequences; without it the texts align one to one).
 */
export class EmbeddedSourceMap extends SourceMap {
  private readonly outer: SourceMap;
  private readonly startOffset: number;
  private readonly offsets: Int32Array | undefined;

  constructor(text: string, outer: SourceMap, startOffset: number, offsets?: Int32Array) {
    super(outer.filename, text);
    this.outer = outer;
    this.startOffset = startOffset;
    this.offsets = offsets;
  }

  override pos(i: number): SourcePos {
    const o = this.offsets === undefined ? i : this.offsets[Math.min(i, this.offsets.length - 1)]!;
    return this.outer.pos(this.startOffset + o);
  }
}

/**
 * Positions as HCL's JSON scanner counts them: between tokens a tab takes two columns and a
 * carriage return none (every other character one, as in {@link SourceMap}).
 */
export class JsonSourceMap extends SourceMap {
  private readonly plain: boolean;

  constructor(filename: string, text: string) {
    super(filename, text);
    this.plain = !/[\t\r]/.test(text);
  }

  override pos(i: number): SourcePos {
    const p = super.pos(i);
    if (this.plain) return p;
    let extra = 0;
    for (let j = i - 1; j >= 0; j--) {
      const c = this.text.charCodeAt(j);
      if (c === 10) break;
      if (c === 9) extra++;
      else if (c === 13) extra--;
    }
    return extra === 0 ? p : { ...p, column: p.column + extra };
  }
}
