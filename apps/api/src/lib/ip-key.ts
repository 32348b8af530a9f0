import { isIPv6 } from 'node:net';

/**
 * The part of a client address a per-IP budget keys on: an IPv4 address as it is, an IPv6
 * address by its /64 (one subscriber usually holds a whole /64, so counting single IPv6
 * addresses would give an attacker 2^64 budgets). An IPv4-mapped IPv6 address counts as its IPv4.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%', 1)[0] ?? ip;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail = ''] = bare.split('::', 2);
  const left = head ? head.split(':') : [];
  const right = bare.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail (::1.2.3.4) fills the last two groups; it is never in the first four.
  const rightGroups = right.flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const groups = bare.includes('::')
    ? [...left, ...Array<string>(8 - left.length - rightGroups.length).fill('0'), ...rightGroups]
    : left.flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
