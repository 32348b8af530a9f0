import { describe, expect, it } from 'vitest';
import { ipKey } from './ip-key';

describe('ipKey', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped ones', () => {
    expect(ipKey('10.1.2.3')).toBe('10.1.2.3');
    expect(ipKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
  });
  it('keys IPv6 on the /64, however the address is written', () => {
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipKey('::1')).toBe('0:0:0:0::/64');
    expect(ipKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
  it('leaves anything else as it is', () => {
    expect(ipKey('unknown')).toBe('unknown');
  });
});
