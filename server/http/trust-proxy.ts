/**
 * TRUST_PROXY (issue #25.5): which peers may tell us the client's address in X-Forwarded-For, for
 * the sign-in lockout and the device-key release log (routes/context.ts `sourceOf`).
 *
 * - unset, empty or `0`: nobody; the socket's peer is the client.
 * - a whole number of hops, `1`…`10`: the last N hops are trusted proxies, whatever their address.
 *   `1` means what it always meant: the address the one proxy in front appended. A client that
 *   reaches the server directly, past the proxy, is then believed too: prefer a list.
 * - a comma-separated list of proxy addresses or CIDR ranges (`10.0.0.0/8,127.0.0.1`, and the names
 *   `loopback`, `linklocal`, `uniquelocal`): only a peer in the list is believed, hop by hop, so a
 *   client whose own address is not a proxy's cannot choose its lockout address.
 *
 * Parsed with `proxy-addr`, the module Express's `trust proxy` setting uses, so the rules (rightmost
 * untrusted address wins; IPv4-mapped IPv6 matches IPv4 ranges) are the ones operators know.
 */
import proxyaddr from 'proxy-addr';

export type TrustProxy = (address: string, hop: number) => boolean;

const HINT = 'TRUST_PROXY must be the number of proxies in front of the server (e.g. 1) or a comma-separated list of their addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)';

/** TRUST_PROXY as a trust function, or null when no proxy is trusted. Throws a message naming TRUST_PROXY. */
export function parseTrustProxy(raw: string | number | boolean | undefined | null): TrustProxy | null {
  if (raw === undefined || raw === null || raw === false) return null;
  if (raw === true) return parseTrustProxy(1);
  const text = String(raw).trim();
  if (text === '' || text === '0') return null;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error(`${HINT}; ${text} hops is more than any real chain of proxies`);
    return (_address, hop) => hop < hops;
  }
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  try {
    if (entries.length === 0) throw new Error('the list is empty');
    return proxyaddr.compile(entries);
  } catch (err) {
    throw new Error(`${HINT}: ${(err as Error).message} (got ${text})`);
  }
}

/** The client's address: the socket's peer, or the furthest address the trusted proxies vouch for. */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trust: TrustProxy | null): string {
  if (!socketAddress) return 'unknown';
  if (!trust || !forwardedFor) return socketAddress;
  const req = { connection: { remoteAddress: socketAddress }, socket: { remoteAddress: socketAddress }, headers: { 'x-forwarded-for': forwardedFor } };
  return proxyaddr(req as unknown as Parameters<typeof proxyaddr>[0], trust);
}
