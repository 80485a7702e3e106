/** TRUST_PROXY parsing (issue #25.5): hop counts, address lists, and start-up errors that name it. */
import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustProxy } from '../../../server/http/trust-proxy';

describe('parseTrustProxy', () => {
  it('unset, empty and 0 trust nobody: the socket address is the client', () => {
    for (const raw of [undefined, '', '0', ' ', false]) {
      expect(parseTrustProxy(raw)).toBeNull();
      expect(clientAddress('10.1.2.3', '203.0.113.1', parseTrustProxy(raw))).toBe('10.1.2.3');
    }
  });

  it('a hop count trusts that many hops from the socket, whatever their address', () => {
    const one = parseTrustProxy('1');
    expect(clientAddress('10.1.2.3', '198.51.100.1, 203.0.113.1', one)).toBe('203.0.113.1');
    const two = parseTrustProxy('2');
    expect(clientAddress('10.1.2.3', '198.51.100.1, 203.0.113.1, 10.9.9.9', two)).toBe('203.0.113.1');
    expect(clientAddress('10.1.2.3', '203.0.113.1', parseTrustProxy(true))).toBe('203.0.113.1');
  });

  it('a list trusts only its addresses and ranges, hop by hop', () => {
    const trust = parseTrustProxy('10.0.0.0/8, 127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.1', trust)).toBe('203.0.113.1');
    expect(clientAddress('::ffff:10.2.3.4', '198.51.100.2, 203.0.113.1', trust)).toBe('203.0.113.1');
    // Two trusted proxies in a row: the first untrusted address from the right is the client.
    expect(clientAddress('10.0.0.5', '198.51.100.2, 10.0.0.7', trust)).toBe('198.51.100.2');
    // A client that is not a listed proxy cannot name itself.
    expect(clientAddress('192.0.2.44', '203.0.113.1', trust)).toBe('192.0.2.44');
    expect(clientAddress('::1', '203.0.113.1', parseTrustProxy('loopback'))).toBe('203.0.113.1');
  });

  it('refuses a malformed value with a message naming TRUST_PROXY', () => {
    expect(() => parseTrustProxy('yes')).toThrow(/^TRUST_PROXY must be .*got yes/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('300.1.1.1')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('11')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy(',')).toThrow(/TRUST_PROXY/);
  });
});
