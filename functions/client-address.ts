// The client a vote is counted against: its IP address, reduced to what identifies one
// subscriber. IPv4 as is; IPv6 by its /64 prefix, because one home or phone gets a whole /64 and
// could otherwise vote again from each of its 2^64 addresses. Pure; the result is only ever
// hashed (functions/votes.ts), never stored.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The eight 16-bit groups of an IPv6 address, or null when the text is not one. */
function ipv6Groups(text: string): number[] | null {
  let s = text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const tail = s.match(/:(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    if (!IPV4.test(tail[1]!)) return null;
    const b = tail[1]!.split('.').map(Number);
    s = `${s.slice(0, -tail[1]!.length)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h === '' ? [] : h.split(':'));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The subject of the client key for an address text, or null when it is not an IP address.
 * IPv4-mapped IPv6 (::ffff:a.b.c.d, what a dual-stack socket reports) counts as the IPv4 address.
 */
export function clientSubject(address: string | null | undefined): string | null {
  if (!address) return null;
  const text = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (IPV4.test(text)) return text;
  const g = ipv6Groups(text);
  if (!g) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  }
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}

/** The last hop of X-Forwarded-For: the address our own proxy saw (earlier entries are client-written). */
export function lastForwardedHop(header: string | null | undefined): string | null {
  if (!header) return null;
  const hops = header.split(',').map((h) => h.trim());
  return hops[hops.length - 1] || null;
}
