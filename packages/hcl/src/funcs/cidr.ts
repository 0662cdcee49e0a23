/**
 * IP network functions: Terraform's `funcs/cidr.go` (over its fork of Go's `net` that
 * accepts IPv4 octets with leading zeros as decimal).
 *
 * @internal
 * @packageDocumentation
 */

import { listType, listVal, listValEmpty, numberType, stringType, stringVal, type Value } from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { fixedFunction, notNull, param, truncNumber } from "./helpers.js";

/** A parsed network: address bits, family width and prefix length. */
interface Net {
  addr: bigint; // network address (host bits cleared)
  bits: 32 | 128;
  prefix: number;
}

/**
 * Whether a 128-bit address is IPv4-mapped (`::ffff:a.b.c.d`), i.e. Go's `net.IP.To4` gives
 * 4 bytes for it. go-cidr then takes the address as 32 bits wide in some places while the
 * mask stays 128 bits wide, and terraform's results for such prefixes follow from that.
 */
function isV4Mapped(n: Net, v: bigint): boolean {
  return n.bits === 128 && v >> 32n === 0xffffn;
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  let tail4: bigint | undefined;
  let text = s;
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    tail4 = parseIPv4(text.slice(lastColon + 1));
    if (tail4 === undefined) return undefined;
    text = text.slice(0, lastColon + 1) + "0:0";
  }
  const dbl = text.split("::");
  if (dbl.length > 2) return undefined;
  const head = dbl[0] === "" ? [] : dbl[0]!.split(":");
  const tail = dbl.length === 2 ? (dbl[1] === "" ? [] : dbl[1]!.split(":")) : [];
  const groups = head.length + tail.length;
  if (dbl.length === 1 && groups !== 8) return undefined;
  if (dbl.length === 2 && groups > 7) return undefined;
  const all = [...head, ...Array<string>(8 - groups).fill("0"), ...tail];
  let v = 0n;
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  if (tail4 !== undefined) v = (v & ~0xffffffffn) | tail4;
  return v;
}

function parseCidr(s: string): Net {
  const slash = s.indexOf("/");
  const bad = () => new FunctionError(`invalid CIDR expression: invalid CIDR address: ${s}`);
  if (slash < 0) throw bad();
  const ipText = s.slice(0, slash);
  const prefixText = s.slice(slash + 1);
  let bits: 32 | 128;
  let addr: bigint | undefined = parseIPv4(ipText);
  if (addr !== undefined) bits = 32;
  else {
    addr = parseIPv6(ipText);
    bits = 128;
  }
  if (addr === undefined || !/^[0-9]{1,3}$/.test(prefixText)) throw bad();
  const prefix = Number(prefixText);
  if (prefix > bits) throw bad();
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return { addr: addr & mask, bits, prefix };
}

function formatIPv4(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join(".");
}

/** Go's `net.IP.String` for a 16-byte address (RFC 5952; IPv4-mapped as dotted quad). */
function formatIPv6(v: bigint): string {
  if (v >> 32n === 0xffffn) return formatIPv4(v & 0xffffffffn);
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((v >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}

function formatIP(n: Net, v: bigint): string {
  return n.bits === 32 ? formatIPv4(v) : formatIPv6(v);
}

function hostAddr(n: Net, num: bigint): bigint {
  const hostBits = BigInt(n.bits - n.prefix);
  const max = 1n << hostBits;
  let k = num;
  if (k < 0n) k += max;
  if (k < 0n || k >= max) {
    throw new FunctionError(`prefix of ${n.prefix} does not accommodate a host numbered ${k}`);
  }
  // go-cidr's HostBig: for an IPv4-mapped network the host number is placed as if the
  // address were 32 bits wide, but into the 16-byte address (so 96 bits too high).
  return n.addr | (isV4Mapped(n, n.addr) ? k << 96n : k);
}

function subnet(n: Net, newbits: number, num: bigint): Net {
  const newPrefix = n.prefix + newbits;
  if (newPrefix > n.bits) throw new FunctionError(`insufficient address space to extend prefix of ${n.prefix} by ${newbits}`);
  // go-cidr's SubnetBig: only numbers above the maximum are refused; a negative number or
  // newbits goes through big.Int arithmetic (two's complement OR, then the magnitude).
  if (newbits >= 0 && num >= 1n << BigInt(newbits)) {
    throw new FunctionError(`prefix extension of ${newbits} does not accommodate a subnet numbered ${num}`);
  }
  let v = n.addr | (num << BigInt(n.bits - newPrefix));
  if (v < 0n) v = -v;
  return { ...n, addr: v, prefix: newPrefix };
}

/**
 * Go's `net.IPNet.String`: an IPv4-mapped network address prints as IPv4 with the last 32
 * bits of the mask (such an address only arises with a prefix of at least 96 bits).
 */
function netText(n: Net): string {
  if (isV4Mapped(n, n.addr)) return `${formatIPv4(n.addr & 0xffffffffn)}/${n.prefix - 96}`;
  return `${formatIP(n, n.addr)}/${n.prefix}`;
}

function intArg(v: Value): bigint {
  const n = v.asNumber();
  if (!n.isInteger()) throw new FunctionError("value must be a whole number");
  return truncNumber(n);
}

/** The IP network functions, by name. */
export function cidrFunctions(): Record<string, HclFunction> {
  return {
    cidrhost: fixedFunction({
      description: "Calculates a full host IP address for a given host number within a given IP network address prefix.",
      params: [param("prefix", stringType), param("hostnum", numberType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const n = parseCidr(a[0]!.asString());
        return stringVal(formatIP(n, hostAddr(n, intArg(a[1]!))));
      },
    }),
    cidrnetmask: fixedFunction({
      description: "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.",
      params: [param("prefix", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const n = parseCidr(a[0]!.asString());
        const mapped = isV4Mapped(n, n.addr);
        if (n.bits !== 32 && !mapped) throw new FunctionError("IPv6 addresses cannot have a netmask: " + a[0]!.asString());
        const mask = ((1n << BigInt(n.prefix)) - 1n) << BigInt(n.bits - n.prefix);
        // An IPv4-mapped network passes terraform's To4 check, but its mask is 16 bytes wide.
        return stringVal(mapped ? formatIPv6(mask) : formatIPv4(mask));
      },
    }),
    cidrsubnet: fixedFunction({
      description: "Calculates a subnet address within a given IP network address prefix.",
      params: [param("prefix", stringType), param("newbits", numberType), param("netnum", numberType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const n = parseCidr(a[0]!.asString());
        const newbits = Number(intArg(a[1]!));
        return stringVal(netText(subnet(n, newbits, intArg(a[2]!))));
      },
    }),
    cidrsubnets: fixedFunction({
      description: "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.",
      params: [param("prefix", stringType)],
      varParam: param("newbits", numberType),
      returns: listType(stringType),
      refineResult: notNull,
      impl: (a) => {
        const n = parseCidr(a[0]!.asString());
        if (a.length === 1) return listValEmpty(stringType);
        const out: string[] = [];
        let next = n.addr;
        let first = true;
        for (let i = 1; i < a.length; i++) {
          const newbits = Number(intArg(a[i]!));
          if (newbits < 1) throw new FunctionArgError(i, "must extend prefix by at least one bit");
          // Terraform keeps each extension within a 32-bit subnet number, even for IPv6.
          if (newbits > 32) throw new FunctionArgError(i, "may not extend prefix by more than 32 bits");
          const newPrefix = n.prefix + newbits;
          if (newPrefix > n.bits) {
            throw new FunctionArgError(i, `would extend prefix to ${newPrefix} bits, which is too long for an IPv${n.bits === 32 ? 4 : 6} address`);
          }
          if (isV4Mapped(n, n.addr)) {
            // go-cidr's PreviousSubnet narrows an IPv4-mapped address to 4 bytes, for which a
            // mask longer than 32 bits is invalid: the starting subnet is a nil network, and
            // the first subnet after it is never inside the base network.
            throw new FunctionArgError(i, `not enough remaining address space for a subnet with a prefix of ${newPrefix} bits after <nil>`);
          }
          const size = 1n << BigInt(n.bits - newPrefix);
          let start = next;
          if (!first) {
            // Align up to the new block size.
            const rem = start % size;
            if (rem !== 0n) start += size - rem;
          }
          const end = start + size - 1n;
          const parentEnd = n.addr + (1n << BigInt(n.bits - n.prefix)) - 1n;
          if (end > parentEnd) {
            throw new FunctionArgError(i, `not enough remaining address space for a subnet with a prefix of ${newPrefix} bits after ${out[out.length - 1] ?? netText(n)}`);
          }
          out.push(netText({ ...n, addr: start, prefix: newPrefix }));
          next = end + 1n;
          first = false;
        }
        return listVal(out.map(stringVal));
      },
    }),
  };
}
