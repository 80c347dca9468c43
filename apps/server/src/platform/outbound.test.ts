import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHost, OutboundGuard, rangeRule } from './outbound.ts';

const closed = { allowLoopback: false, denyPrivate: false };

describe('the outbound guard: which addresses a configured connection may reach', () => {
  it('refuses loopback, link-local, metadata, unspecified, multicast and broadcast, in every IPv6 form', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fd00:ec2::254', 'cloud-metadata'],
      ['100.100.100.200', 'cloud-metadata'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['8.8.8.8', undefined],
      ['2001:4860:4860::8888', undefined],
      ['10.1.2.3', undefined],
      ['172.16.0.1', undefined],
      ['192.168.1.1', undefined],
      ['fc00::1', undefined],
    ];
    for (const [address, rule] of cases) expect(rangeRule(address, closed), address).toBe(rule);
  });

  it('opens loopback with OUTBOUND_ALLOW_LOOPBACK and closes private ranges with OUTBOUND_DENY_PRIVATE', () => {
    expect(rangeRule('127.0.0.1', { allowLoopback: true, denyPrivate: false })).toBeUndefined();
    expect(rangeRule('::ffff:127.0.0.1', { allowLoopback: true, denyPrivate: false })).toBeUndefined();
    // Link-local stays refused: the metadata service is never a test peer.
    expect(rangeRule('169.254.169.254', { allowLoopback: true, denyPrivate: false })).toBe('link-local');
    const denyPrivate = { allowLoopback: false, denyPrivate: true };
    for (const address of [
      '10.0.0.1',
      '172.31.255.1',
      '192.168.0.1',
      'fd12::1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
    ])
      expect(rangeRule(address, denyPrivate), address).toBe('private');
    expect(rangeRule('203.0.113.5', denyPrivate)).toBeUndefined();
  });

  it('reads a typed host as the address it means: decimal, hex and bracketed forms', () => {
    expect(canonicalHost('2130706433')).toBe('127.0.0.1');
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('[::ffff:127.0.0.1]')).toBe('::ffff:127.0.0.1');
    expect(canonicalHost('Metadata.Google.Internal.')).toBe('metadata.google.internal');
    expect(canonicalHost('ftp.example.com')).toBe('ftp.example.com');
  });

  it('every IPv4 address is refused the same way bare and IPv4-mapped', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(rangeRule(`::ffff:${address}`, closed)).toBe(rangeRule(address, closed));
      }),
    );
  });

  it("refuses this server's own port on loopback even when loopback is open, and resolves names to check", async () => {
    const guard = new OutboundGuard(
      { outbound: { allowLoopback: true, denyPrivate: false }, port: 8080, databaseUrl: undefined },
      'publishing',
    );
    expect((await guard.refusal('127.0.0.1', 8080))?.rule).toBe('own-port');
    expect(await guard.refusal('127.0.0.1', 8081)).toBeUndefined();
    const closedGuard = new OutboundGuard(
      { outbound: closed, port: 8080, databaseUrl: undefined },
      'publishing',
    );
    await expect(closedGuard.resolve('localhost', 21)).rejects.toMatchObject({ rule: 'loopback' });
    await expect(closedGuard.resolve('2130706433', 21)).rejects.toMatchObject({ rule: 'loopback' });
    await expect(closedGuard.resolve('metadata.google.internal', 80)).rejects.toMatchObject({
      rule: 'cloud-metadata',
      message:
        'The address metadata.google.internal is a cloud metadata address, which publishing may not reach',
    });
  });
});
