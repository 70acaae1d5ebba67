import { isIP } from 'node:net';

/**
 * Addresses and subnets (CIDR) as ranges of one 128-bit space, IPv4 in its IPv4-mapped place
 * (::ffff:0:0/96): what QE_TRUST_PROXY's list covers is worked out by merging ranges, never by
 * reading the text, so 0.0.0.0/1 with 128.0.0.0/1, or ::ffff:0:0/96, is seen to be every IPv4
 * address. An IPv6 subnet over the mapped block counts for the IPv4 addresses in it too: no
 * proxy list needs one, and counting it keeps the check on the safe side of how a version of
 * proxy-addr matches families (so ::/1 is every IPv4 address).
 */
export interface IpRange {
  first: bigint;
  last: bigint;
}

const MAPPED = 0xffffn << 32n;
const ALL6: IpRange = { first: 0n, last: (1n << 128n) - 1n };
const ALL4: IpRange = { first: MAPPED, last: MAPPED | 0xffffffffn };

function ipv4(text: string): bigint {
  return text.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address Node accepts (isIP 6), `::` and a dotted IPv4 tail included, as a number. */
function ipv6(text: string): bigint {
  const groups = (part: string) => {
    if (!part) return [];
    const out = part.split(':');
    const tail = out.at(-1)!;
    if (tail.includes('.')) {
      const v4 = ipv4(tail);
      out.splice(-1, 1, (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
    }
    return out;
  };
  const [head, rest] = text.split('::');
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** The range of an address or subnet ("10.1.0.0/16", "fd00::/8", "10.0.0.2"), or null when it is not one. */
export function ipRange(entry: string): IpRange | null {
  const [address, prefix, extra] = entry.split('/');
  // no zone (fe80::1%eth0) nor anything else Node would read as an address
  const family = /^[\da-f:.]+$/i.test(address) ? isIP(address) : 0;
  if (!family || extra !== undefined) return null;
  const bits = family === 4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return null;
  const length = prefix === undefined ? bits : Number(prefix);
  if (length > bits) return null;
  const value = family === 4 ? MAPPED | ipv4(address) : ipv6(address);
  const hostBits = BigInt(bits - length);
  const first = (value >> hostBits) << hostBits;
  return { first, last: first | ((1n << hostBits) - 1n) };
}

/** Whether the ranges together cover all of `whole`: merged in order, with no gap left. */
function covers(ranges: IpRange[], whole: IpRange): boolean {
  let next = whole.first;
  for (const r of [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0))) {
    if (r.first > next) break;
    if (r.last >= next) next = r.last + 1n;
    if (next > whole.last) return true;
  }
  return false;
}

/** "every IPv4 address" / "every IPv6 address" when the ranges together cover one whole family, else null. */
export function coversAFamily(ranges: IpRange[]): string | null {
  if (covers(ranges, ALL6)) return 'every IPv6 address';
  if (covers(ranges, ALL4)) return 'every IPv4 address';
  return null;
}

/**
 * Who a client address stands for, as the per-address login limit counts it: an IPv4 address
 * however the socket spells it (1.2.3.4 and ::ffff:1.2.3.4 alike), an IPv6 one by its /64 — the
 * block one household or host is given, in which it may take any address it likes.
 */
export function addressKey(address: string): string {
  const range = ipRange(address);
  if (!range) return address;
  if (range.first >= ALL4.first && range.first <= ALL4.last) {
    const v4 = range.first & 0xffffffffn;
    return [24n, 16n, 8n, 0n].map((shift) => String((v4 >> shift) & 0xffn)).join('.');
  }
  const groups = [112n, 96n, 80n, 64n].map((shift) => ((range.first >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}
