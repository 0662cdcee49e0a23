/**
 * DEFLATE as Go's `compress/flate` writes it at the default level (6), so that
 * `base64gzip` gives terraform's bytes: the same hash chains and lazy matching choose the
 * same matches, and the same Huffman code construction and block-type choice (fixed,
 * dynamic or stored) encode them. Written from the algorithm's description in Go's
 * sources; only the parts that level 6 with a single Write, Flush and Close uses.
 *
 * @internal
 * @packageDocumentation
 */

const LOG_WINDOW = 15;
const WINDOW = 1 << LOG_WINDOW;
const WINDOW_MASK = WINDOW - 1;
const BASE_MATCH_LENGTH = 3;
const MIN_MATCH = 4;
const MAX_MATCH = 258;
const BASE_MATCH_OFFSET = 1;
const MAX_BLOCK_TOKENS = 1 << 14;
const MAX_STORE_BLOCK = 65535;
const HASH_BITS = 17;
const HASH_SIZE = 1 << HASH_BITS;
const HASH_MASK = HASH_SIZE - 1;
const MAX_HASH_OFFSET = 1 << 24;
const HASH_MUL = 0x1e35a7bd;

// Level 6.
const GOOD = 8;
const LAZY = 16;
const NICE = 128;
const CHAIN = 128;

const MAX_NUM_LIT = 286;
const OFFSET_CODE_COUNT = 30;
const END_BLOCK = 256;
const LENGTH_CODES_START = 257;
const CODEGEN_CODE_COUNT = 19;
const BAD_CODE = 255;

const LENGTH_EXTRA_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const LENGTH_BASE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255];
const OFFSET_EXTRA_BITS = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const OFFSET_BASE = [
  0x0, 0x1, 0x2, 0x3, 0x4, 0x6, 0x8, 0xc, 0x10, 0x18, 0x20, 0x30, 0x40, 0x60, 0x80, 0xc0, 0x100, 0x180, 0x200, 0x300, 0x400, 0x600, 0x800, 0xc00,
  0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000,
];
const CODEGEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A token: a literal byte, or a match of (length - 3, offset - 1). */
interface Token {
  readonly literal?: number;
  readonly length?: number; // length - 3
  readonly offset?: number; // offset - 1
}

function lengthCode(len: number): number {
  let c = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[c]! > len) c--;
  return c;
}

function offsetCode(off: number): number {
  let c = OFFSET_BASE.length - 1;
  while (OFFSET_BASE[c]! > off) c--;
  return c;
}

function reverseBits(code: number, len: number): number {
  let r = 0;
  for (let i = 0; i < len; i++) {
    r = (r << 1) | ((code >> i) & 1);
  }
  return r;
}

/** A Huffman code: per symbol, the (bit-reversed) code and its length. */
class HuffmanEncoder {
  readonly code: number[];
  readonly len: number[];
  constructor(size: number) {
    this.code = new Array<number>(size).fill(0);
    this.len = new Array<number>(size).fill(0);
  }

  bitLength(freq: readonly number[]): number {
    let total = 0;
    freq.forEach((f, i) => {
      if (f !== 0) total += f * this.len[i]!;
    });
    return total;
  }

  /** Go's `huffmanEncoder.generate`: length-limited codes, assigned in literal order. */
  generate(freq: readonly number[], maxBits: number): void {
    const list: { literal: number; freq: number }[] = [];
    freq.forEach((f, i) => {
      if (f !== 0) list.push({ literal: i, freq: f });
      else this.len[i] = 0;
    });
    if (list.length <= 2) {
      list.forEach((node, i) => {
        this.code[node.literal] = i;
        this.len[node.literal] = 1;
      });
      return;
    }
    list.sort((a, b) => (a.freq === b.freq ? a.literal - b.literal : a.freq - b.freq));
    const bitCount = bitCounts(list, maxBits);
    // Assign codes: the least frequent literals get the longest codes, in literal order.
    let code = 0;
    let rest = list;
    bitCount.forEach((bits, n) => {
      code <<= 1;
      if (n === 0 || bits === 0) return;
      const chunk = rest.slice(rest.length - bits).sort((a, b) => a.literal - b.literal);
      for (const node of chunk) {
        this.code[node.literal] = reverseBits(code, n);
        this.len[node.literal] = n;
        code++;
      }
      rest = rest.slice(0, rest.length - bits);
    });
  }
}

const MAX_INT32 = 2147483647;

/** Go's `bitCounts`: how many literals get each code length (package-merge style). */
function bitCounts(sorted: readonly { freq: number }[], maxBitsIn: number): number[] {
  const n = sorted.length;
  const freqAt = (i: number) => (i < n ? sorted[i]!.freq : MAX_INT32);
  let maxBits = maxBitsIn;
  if (maxBits > n - 1) maxBits = n - 1;
  interface Level {
    level: number;
    lastFreq: number;
    nextCharFreq: number;
    nextPairFreq: number;
    needed: number;
  }
  const levels: Level[] = [];
  for (let i = 0; i <= 16; i++) levels.push({ level: i, lastFreq: 0, nextCharFreq: 0, nextPairFreq: 0, needed: 0 });
  const leafCounts: number[][] = [];
  for (let i = 0; i <= 16; i++) leafCounts.push(new Array<number>(17).fill(0));
  for (let level = 1; level <= maxBits; level++) {
    levels[level] = { level, lastFreq: freqAt(1), nextCharFreq: freqAt(2), nextPairFreq: freqAt(0) + freqAt(1), needed: 0 };
    leafCounts[level]![level] = 2;
    if (level === 1) levels[level]!.nextPairFreq = MAX_INT32;
  }
  levels[maxBits]!.needed = 2 * n - 4;
  let level = maxBits;
  for (;;) {
    const l = levels[level]!;
    if (l.nextPairFreq === MAX_INT32 && l.nextCharFreq === MAX_INT32) {
      l.needed = 0;
      levels[level + 1]!.nextPairFreq = MAX_INT32;
      level++;
      continue;
    }
    const prevFreq = l.lastFreq;
    if (l.nextCharFreq < l.nextPairFreq) {
      const c = leafCounts[level]![level]! + 1;
      l.lastFreq = l.nextCharFreq;
      leafCounts[level]![level] = c;
      l.nextCharFreq = freqAt(c);
    } else {
      l.lastFreq = l.nextPairFreq;
      for (let j = 0; j < level; j++) leafCounts[level]![j] = leafCounts[level - 1]![j]!;
      levels[l.level - 1]!.needed = 2;
    }
    l.needed--;
    if (l.needed === 0) {
      if (l.level === maxBits) break;
      levels[l.level + 1]!.nextPairFreq = prevFreq + l.lastFreq;
      level++;
    } else {
      while (levels[level - 1]!.needed > 0) level--;
    }
  }
  const bitCount = new Array<number>(maxBits + 1).fill(0);
  let bits = 1;
  const counts = leafCounts[maxBits]!;
  for (let lv = maxBits; lv > 0; lv--) {
    bitCount[bits] = counts[lv]! - counts[lv - 1]!;
    bits++;
  }
  return bitCount;
}

function fixedLiteralEncoding(): HuffmanEncoder {
  const h = new HuffmanEncoder(MAX_NUM_LIT);
  for (let ch = 0; ch < MAX_NUM_LIT; ch++) {
    let bits: number;
    let size: number;
    if (ch < 144) [bits, size] = [ch + 48, 8];
    else if (ch < 256) [bits, size] = [ch + 400 - 144, 9];
    else if (ch < 280) [bits, size] = [ch - 256, 7];
    else [bits, size] = [ch + 192 - 280, 8];
    h.code[ch] = reverseBits(bits, size);
    h.len[ch] = size;
  }
  return h;
}

function fixedOffsetEncoding(): HuffmanEncoder {
  const h = new HuffmanEncoder(30);
  for (let i = 0; i < 30; i++) {
    h.code[i] = reverseBits(i, 5);
    h.len[i] = 5;
  }
  return h;
}

const FIXED_LIT = fixedLiteralEncoding();
const FIXED_OFF = fixedOffsetEncoding();

/** Go's `huffmanBitWriter`, writing into a byte array. */
class BitWriter {
  private readonly out: number[] = [];
  private bits = 0n;
  private nbits = 0;
  private readonly literalFreq = new Array<number>(MAX_NUM_LIT).fill(0);
  private readonly offsetFreq = new Array<number>(OFFSET_CODE_COUNT).fill(0);
  private readonly codegenFreq = new Array<number>(CODEGEN_CODE_COUNT).fill(0);
  private codegen: number[] = [];
  private readonly literalEncoding = new HuffmanEncoder(MAX_NUM_LIT);
  private readonly offsetEncoding = new HuffmanEncoder(OFFSET_CODE_COUNT);
  private readonly codegenEncoding = new HuffmanEncoder(CODEGEN_CODE_COUNT);

  bytes(): Uint8Array {
    return Uint8Array.from(this.out);
  }

  writeBits(b: number, nb: number): void {
    this.bits |= BigInt(b >>> 0) << BigInt(this.nbits);
    this.nbits += nb;
    while (this.nbits >= 8) {
      this.out.push(Number(this.bits & 0xffn));
      this.bits >>= 8n;
      this.nbits -= 8;
    }
  }

  flush(): void {
    if (this.nbits > 0) {
      this.out.push(Number(this.bits & 0xffn));
      this.bits = 0n;
      this.nbits = 0;
    }
  }

  private writeCode(h: HuffmanEncoder, sym: number): void {
    this.writeBits(h.code[sym]!, h.len[sym]!);
  }

  writeStoredHeader(length: number, eof: boolean): void {
    this.writeBits(eof ? 1 : 0, 3);
    this.flush();
    this.writeBits(length, 16);
    this.writeBits(~length & 0xffff, 16);
  }

  private writeBytes(b: Uint8Array): void {
    this.flush();
    for (const x of b) this.out.push(x);
  }

  private indexTokens(tokens: readonly Token[]): [number, number] {
    this.literalFreq.fill(0);
    this.offsetFreq.fill(0);
    for (const t of tokens) {
      if (t.literal !== undefined) this.literalFreq[t.literal]!++;
      else {
        this.literalFreq[LENGTH_CODES_START + lengthCode(t.length!)]!++;
        this.offsetFreq[offsetCode(t.offset!)]!++;
      }
    }
    let numLiterals = MAX_NUM_LIT;
    while (this.literalFreq[numLiterals - 1] === 0) numLiterals--;
    let numOffsets = OFFSET_CODE_COUNT;
    while (numOffsets > 0 && this.offsetFreq[numOffsets - 1] === 0) numOffsets--;
    if (numOffsets === 0) {
      this.offsetFreq[0] = 1;
      numOffsets = 1;
    }
    this.literalEncoding.generate(this.literalFreq, 15);
    this.offsetEncoding.generate(this.offsetFreq, 15);
    return [numLiterals, numOffsets];
  }

  private generateCodegen(numLiterals: number, numOffsets: number): void {
    this.codegenFreq.fill(0);
    const cg: number[] = [];
    for (let i = 0; i < numLiterals; i++) cg.push(this.literalEncoding.len[i]!);
    for (let i = 0; i < numOffsets; i++) cg.push(this.offsetEncoding.len[i]!);
    cg.push(BAD_CODE);
    const out: number[] = [];
    let size = cg[0]!;
    let count = 1;
    for (let inIndex = 1; size !== BAD_CODE; inIndex++) {
      const nextSize = cg[inIndex]!;
      if (nextSize === size) {
        count++;
        continue;
      }
      if (size !== 0) {
        out.push(size);
        this.codegenFreq[size]!++;
        count--;
        while (count >= 3) {
          const n = Math.min(6, count);
          out.push(16, n - 3);
          this.codegenFreq[16]!++;
          count -= n;
        }
      } else {
        while (count >= 11) {
          const n = Math.min(138, count);
          out.push(18, n - 11);
          this.codegenFreq[18]!++;
          count -= n;
        }
        if (count >= 3) {
          out.push(17, count - 3);
          this.codegenFreq[17]!++;
          count = 0;
        }
      }
      count--;
      for (; count >= 0; count--) {
        out.push(size);
        this.codegenFreq[size]!++;
      }
      size = nextSize;
      count = 1;
    }
    out.push(BAD_CODE);
    this.codegen = out;
  }

  private dynamicSize(extraBits: number): [number, number] {
    let numCodegens = CODEGEN_CODE_COUNT;
    while (numCodegens > 4 && this.codegenFreq[CODEGEN_ORDER[numCodegens - 1]!] === 0) numCodegens--;
    const header =
      3 +
      5 +
      5 +
      4 +
      3 * numCodegens +
      this.codegenEncoding.bitLength(this.codegenFreq) +
      this.codegenFreq[16]! * 2 +
      this.codegenFreq[17]! * 3 +
      this.codegenFreq[18]! * 7;
    return [header + this.literalEncoding.bitLength(this.literalFreq) + this.offsetEncoding.bitLength(this.offsetFreq) + extraBits, numCodegens];
  }

  private writeDynamicHeader(numLiterals: number, numOffsets: number, numCodegens: number, eof: boolean): void {
    this.writeBits(eof ? 5 : 4, 3);
    this.writeBits(numLiterals - 257, 5);
    this.writeBits(numOffsets - 1, 5);
    this.writeBits(numCodegens - 4, 4);
    for (let i = 0; i < numCodegens; i++) this.writeBits(this.codegenEncoding.len[CODEGEN_ORDER[i]!]!, 3);
    let i = 0;
    for (;;) {
      const cw = this.codegen[i++]!;
      if (cw === BAD_CODE) break;
      this.writeCode(this.codegenEncoding, cw);
      if (cw === 16) this.writeBits(this.codegen[i++]!, 2);
      else if (cw === 17) this.writeBits(this.codegen[i++]!, 3);
      else if (cw === 18) this.writeBits(this.codegen[i++]!, 7);
    }
  }

  /** Go's `writeBlock`: the smallest of fixed, dynamic and stored encodings. */
  writeBlock(input: readonly Token[], eof: boolean, raw: Uint8Array | undefined): void {
    const tokens = [...input, { literal: END_BLOCK }];
    const [numLiterals, numOffsets] = this.indexTokens(tokens);
    let extraBits = 0;
    const storable = raw !== undefined && raw.length <= MAX_STORE_BLOCK;
    const storedSize = storable ? (raw.length + 5) * 8 : 0;
    if (storable) {
      for (let lc = LENGTH_CODES_START + 8; lc < numLiterals; lc++) extraBits += this.literalFreq[lc]! * LENGTH_EXTRA_BITS[lc - LENGTH_CODES_START]!;
      for (let oc = 4; oc < numOffsets; oc++) extraBits += this.offsetFreq[oc]! * OFFSET_EXTRA_BITS[oc]!;
    }
    let lit = FIXED_LIT;
    let off = FIXED_OFF;
    let size = 3 + FIXED_LIT.bitLength(this.literalFreq) + FIXED_OFF.bitLength(this.offsetFreq) + extraBits;
    this.generateCodegen(numLiterals, numOffsets);
    this.codegenEncoding.generate(this.codegenFreq, 7);
    const [dynamicSize, numCodegens] = this.dynamicSize(extraBits);
    if (dynamicSize < size) {
      size = dynamicSize;
      lit = this.literalEncoding;
      off = this.offsetEncoding;
    }
    if (storable && storedSize < size) {
      this.writeStoredHeader(raw.length, eof);
      this.writeBytes(raw);
      return;
    }
    if (lit === FIXED_LIT) this.writeBits(eof ? 3 : 2, 3);
    else this.writeDynamicHeader(numLiterals, numOffsets, numCodegens, eof);
    for (const t of tokens) {
      if (t.literal !== undefined) {
        this.writeCode(lit, t.literal);
        continue;
      }
      const lc = lengthCode(t.length!);
      this.writeCode(lit, lc + LENGTH_CODES_START);
      if (LENGTH_EXTRA_BITS[lc]! > 0) this.writeBits(t.length! - LENGTH_BASE[lc]!, LENGTH_EXTRA_BITS[lc]!);
      const oc = offsetCode(t.offset!);
      this.writeCode(off, oc);
      if (OFFSET_EXTRA_BITS[oc]! > 0) this.writeBits(t.offset! - OFFSET_BASE[oc]!, OFFSET_EXTRA_BITS[oc]!);
    }
  }
}

function hash4(w: Uint8Array, i: number): number {
  const v = (w[i + 3]! | (w[i + 2]! << 8) | (w[i + 1]! << 16) | (w[i]! << 24)) >>> 0;
  return Math.imul(v, HASH_MUL) >>> (32 - HASH_BITS);
}

function matchLen(w: Uint8Array, a: number, b: number, max: number): number {
  for (let i = 0; i < max; i++) if (w[a + i] !== w[b + i]) return i;
  return max;
}

/** Go's level-6 compressor (`compressor.deflate` with lazy matching). */
class Compressor {
  private readonly w = new BitWriter();
  private readonly window = new Uint8Array(2 * WINDOW);
  private readonly hashHead = new Uint32Array(HASH_SIZE);
  private readonly hashPrev = new Uint32Array(WINDOW);
  private hashOffset = 1;
  private chainHead = -1;
  private index = 0;
  private windowEnd = 0;
  private blockStart = 0;
  private byteAvailable = false;
  private tokens: Token[] = [];
  private length = MIN_MATCH - 1;
  private offset = 0;
  private maxInsertIndex = 0;
  private sync = false;

  write(b: Uint8Array): void {
    let rest = b;
    while (rest.length > 0) {
      this.deflate();
      rest = rest.subarray(this.fill(rest));
    }
  }

  private fill(b: Uint8Array): number {
    if (this.index >= 2 * WINDOW - (MIN_MATCH + MAX_MATCH)) {
      this.window.copyWithin(0, WINDOW, 2 * WINDOW);
      this.index -= WINDOW;
      this.windowEnd -= WINDOW;
      this.blockStart = this.blockStart >= WINDOW ? this.blockStart - WINDOW : MAX_INT32;
      this.hashOffset += WINDOW;
      if (this.hashOffset > MAX_HASH_OFFSET) {
        const delta = this.hashOffset - 1;
        this.hashOffset -= delta;
        this.chainHead -= delta;
        for (let i = 0; i < this.hashPrev.length; i++) this.hashPrev[i] = this.hashPrev[i]! > delta ? this.hashPrev[i]! - delta : 0;
        for (let i = 0; i < this.hashHead.length; i++) this.hashHead[i] = this.hashHead[i]! > delta ? this.hashHead[i]! - delta : 0;
      }
    }
    const n = Math.min(b.length, this.window.length - this.windowEnd);
    this.window.set(b.subarray(0, n), this.windowEnd);
    this.windowEnd += n;
    return n;
  }

  private writeBlock(index: number): void {
    if (index > 0) {
      const raw = this.blockStart <= index ? this.window.slice(this.blockStart, index) : undefined;
      this.blockStart = index;
      this.w.writeBlock(this.tokens, false, raw);
    }
    this.tokens = [];
  }

  private findMatch(pos: number, prevHead: number, prevLength: number, lookahead: number): [number, number, boolean] {
    const minMatchLook = Math.min(MAX_MATCH, lookahead);
    const winLen = pos + minMatchLook;
    let nice = winLen - pos;
    if (NICE < nice) nice = NICE;
    let tries = CHAIN;
    let length = prevLength;
    let offset = 0;
    let ok = false;
    if (length >= GOOD) tries >>= 2;
    const w = this.window;
    let wEnd = w[pos + length];
    const minIndex = pos - WINDOW;
    for (let i = prevHead; tries > 0; tries--) {
      if (wEnd === w[i + length]) {
        const n = matchLen(w, i, pos, minMatchLook);
        if (n > length && (n > MIN_MATCH || pos - i <= 4096)) {
          length = n;
          offset = pos - i;
          ok = true;
          if (n >= nice) break;
          wEnd = w[pos + n];
        }
      }
      if (i === minIndex) break;
      i = this.hashPrev[i & WINDOW_MASK]! - this.hashOffset;
      if (i < minIndex || i < 0) break;
    }
    return [length, offset, ok];
  }

  private deflate(): void {
    if (this.windowEnd - this.index < MIN_MATCH + MAX_MATCH && !this.sync) return;
    this.maxInsertIndex = this.windowEnd - (MIN_MATCH - 1);
    for (;;) {
      const lookahead = this.windowEnd - this.index;
      if (lookahead < MIN_MATCH + MAX_MATCH) {
        if (!this.sync) break;
        if (lookahead === 0) {
          if (this.byteAvailable) {
            this.tokens.push({ literal: this.window[this.index - 1]! });
            this.byteAvailable = false;
          }
          if (this.tokens.length > 0) this.writeBlock(this.index);
          break;
        }
      }
      if (this.index < this.maxInsertIndex) {
        const h = hash4(this.window, this.index) & HASH_MASK;
        this.chainHead = this.hashHead[h]!;
        this.hashPrev[this.index & WINDOW_MASK] = this.chainHead;
        this.hashHead[h] = this.index + this.hashOffset;
      }
      const prevLength = this.length;
      const prevOffset = this.offset;
      this.length = MIN_MATCH - 1;
      this.offset = 0;
      const minIndex = Math.max(0, this.index - WINDOW);
      if (this.chainHead - this.hashOffset >= minIndex && lookahead > prevLength && prevLength < LAZY) {
        const [nl, no, ok] = this.findMatch(this.index, this.chainHead - this.hashOffset, MIN_MATCH - 1, lookahead);
        if (ok) {
          this.length = nl;
          this.offset = no;
        }
      }
      if (prevLength >= MIN_MATCH && this.length <= prevLength) {
        this.tokens.push({ length: prevLength - BASE_MATCH_LENGTH, offset: prevOffset - BASE_MATCH_OFFSET });
        const newIndex = this.index + prevLength - 1;
        for (this.index++; this.index < newIndex; this.index++) {
          if (this.index < this.maxInsertIndex) {
            const h = hash4(this.window, this.index) & HASH_MASK;
            this.hashPrev[this.index & WINDOW_MASK] = this.hashHead[h]!;
            this.hashHead[h] = this.index + this.hashOffset;
          }
        }
        this.byteAvailable = false;
        this.length = MIN_MATCH - 1;
        if (this.tokens.length === MAX_BLOCK_TOKENS) this.writeBlock(this.index);
      } else {
        if (this.byteAvailable) {
          const i = this.index - 1;
          this.tokens.push({ literal: this.window[i]! });
          if (this.tokens.length === MAX_BLOCK_TOKENS) this.writeBlock(i + 1);
        }
        this.index++;
        this.byteAvailable = true;
      }
    }
  }

  /** Go's `Flush`: everything so far in blocks, then an empty stored block. */
  syncFlush(): void {
    this.sync = true;
    this.deflate();
    this.w.writeStoredHeader(0, false);
    this.w.flush();
    this.sync = false;
  }

  /** Go's `Close`: the final empty stored block. */
  close(): Uint8Array {
    this.sync = true;
    this.deflate();
    this.w.writeStoredHeader(0, true);
    this.w.flush();
    return this.w.bytes();
  }
}

/** Raw DEFLATE of `data` as Go writes it with one Write, a Flush and Close (level 6). */
export function goDeflateFlushClose(data: Uint8Array): Uint8Array {
  const c = new Compressor();
  c.write(data);
  c.syncFlush();
  return c.close();
}
