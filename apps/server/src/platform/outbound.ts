import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import {
  CLOUD_METADATA_NAMES,
  msgOutboundRefused,
  type OutboundPurpose,
  type OutboundRule,
} from '@media/contract';
import ipaddr from 'ipaddr.js';
import type { Config } from './config.ts';

/**
 * The one way out for connections a user configures (DESIGN "Identity, tokens and the way out", issue 30):
 * a host is resolved here and the connection is made to the very address that was checked, so a DNS answer
 * that changes between check and connect cannot get around it. Refused: loopback (unless
 * OUTBOUND_ALLOW_LOOPBACK=1), link-local, cloud metadata, unspecified, multicast and broadcast addresses,
 * this server's own port and database, and private ranges when OUTBOUND_DENY_PRIVATE=1; IPv4-mapped and
 * NAT64 forms count as the IPv4 address they carry.
 */
export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(
    readonly address: string,
    readonly rule: OutboundRule,
    purpose: OutboundPurpose,
  ) {
    super(msgOutboundRefused(address, rule, purpose));
  }
}

/** Metadata services at addresses no other rule refuses (169.254.169.254 is refused as link-local). */
const CLOUD_METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200']);

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Policy = Config['outbound'];

/** The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64's 64:ff9b::/96), else the address itself. */
const carried = (ip: Address): Address => {
  if (ip.kind() === 'ipv4') return ip;
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.range() === 'rfc6052') return new ipaddr.IPv4(v6.toByteArray().slice(12));
  return v6;
};

/** The rule that refuses an address by its range, whatever its port; undefined when it may be reached. */
export const rangeRule = (literal: string, policy: Policy): OutboundRule | undefined => {
  const parsed = ipaddr.parse(literal);
  if (CLOUD_METADATA_ADDRESSES.has(parsed.toString())) return 'cloud-metadata';
  const ip = carried(parsed);
  if (CLOUD_METADATA_ADDRESSES.has(ip.toString())) return 'cloud-metadata';
  switch (ip.range()) {
    case 'loopback':
      return policy.allowLoopback ? undefined : 'loopback';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
      return 'multicast';
    case 'broadcast':
      return 'broadcast';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return policy.denyPrivate ? 'private' : undefined;
    default:
      return undefined;
  }
};

/** How a message writes an address: IPv6 compressed, an IPv4-mapped one as ::ffff: and its IPv4 address. */
const spelled = (literal: string) => {
  const parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return `::ffff:${(parsed as ipaddr.IPv6).toIPv4Address().toString()}`;
  return parsed.toString();
};

/** One spelling per address, IPv4-mapped forms as IPv4, for comparing addresses. */
const canonical = (literal: string) => carried(ipaddr.parse(literal)).toString();

/** This machine's addresses: loopback and every interface's. */
const ownAddresses = () => {
  const found = new Set(['127.0.0.1', '::1', '0.0.0.0', '::']);
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? []) found.add(canonical(entry.address.split('%')[0] as string));
  return found;
};

/** A typed host as the address it means: brackets dropped, decimal and hex IPv4 forms read as WHATWG does. */
export const canonicalHost = (host: string) => {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare)) return bare;
  try {
    const hostname = new URL(`http://${bare}/`).hostname.replace(/^\[(.*)\]$/, '$1');
    return net.isIP(hostname) ? hostname : bare.toLowerCase().replace(/\.$/, '');
  } catch {
    return bare.toLowerCase();
  }
};

const isMetadataName = (host: string) => (CLOUD_METADATA_NAMES as readonly string[]).includes(host);

/** How an address with its port is written in a message. */
const shown = (address: string, port?: number) =>
  port === undefined ? address : `${address.includes(':') ? `[${address}]` : address}:${port}`;

export type OutboundTarget = { address: string; family: 4 | 6 };

export class OutboundGuard {
  private database: Promise<{ addresses: Set<string>; port: number } | undefined> | undefined;

  constructor(
    private readonly config: Pick<Config, 'outbound' | 'port' | 'databaseUrl'>,
    private readonly purpose: OutboundPurpose,
  ) {}

  /** The database's addresses and port, resolved once: publishing may not reach the product's own database. */
  private databaseTarget() {
    this.database ??= (async () => {
      if (!this.config.databaseUrl) return undefined;
      const url = new URL(this.config.databaseUrl);
      const host = canonicalHost(decodeURIComponent(url.hostname) || 'localhost');
      const port = Number(url.port || 5432);
      const resolved = net.isIP(host)
        ? [host]
        : await dns.promises.lookup(host, { all: true }).then(
            (list) => list.map((entry) => entry.address),
            () => [] as string[],
          );
      const addresses = new Set(resolved.map(canonical));
      const own = ownAddresses();
      // A database on this machine answers on every address of it.
      if (
        [...addresses].some((address) => own.has(address) || rangeRule(address, NO_LOOPBACK) === 'loopback')
      )
        for (const address of own) addresses.add(address);
      return { addresses, port };
    })();
    return this.database;
  }

  /** Why an address (with the port it is reached on) is refused, or undefined. */
  async refusal(literal: string, port: number | undefined): Promise<OutboundRefused | undefined> {
    const rule = rangeRule(literal, this.config.outbound);
    if (rule) return new OutboundRefused(spelled(literal), rule, this.purpose);
    if (port === undefined) return undefined;
    const address = canonical(literal);
    const isOwn = ownAddresses().has(address) || rangeRule(address, NO_LOOPBACK) === 'loopback';
    if (isOwn && port === this.config.port)
      return new OutboundRefused(shown(spelled(literal), port), 'own-port', this.purpose);
    const database = await this.databaseTarget();
    if (database && port === database.port && database.addresses.has(address))
      return new OutboundRefused(shown(spelled(literal), port), 'own-database', this.purpose);
    return undefined;
  }

  /**
   * What a typed host says by itself, without asking DNS (saving a button): a literal address that is
   * refused, or a cloud metadata name. Names are checked again on the addresses they resolve to, at connect.
   */
  async typedRefusal(host: string, port?: number): Promise<OutboundRefused | undefined> {
    const canonicalName = canonicalHost(host);
    if (isMetadataName(canonicalName))
      return new OutboundRefused(canonicalName, 'cloud-metadata', this.purpose);
    return net.isIP(canonicalName) ? this.refusal(canonicalName, port) : undefined;
  }

  /**
   * Every address the host resolves to, each checked; a host with one refused address is refused (a name
   * that answers a public and a loopback address is a rebinding attempt).
   */
  async resolveAll(host: string, port: number, family?: number): Promise<OutboundTarget[]> {
    const typed = await this.typedRefusal(host, port);
    if (typed) throw typed;
    const name = canonicalHost(host);
    const found: OutboundTarget[] = net.isIP(name)
      ? [{ address: name, family: net.isIP(name) as 4 | 6 }]
      : (
          await dns.promises.lookup(name, { all: true, family: family === 4 || family === 6 ? family : 0 })
        ).map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
    for (const target of found) {
      const refused = await this.refusal(target.address, port);
      if (refused) throw refused;
    }
    return found;
  }

  /** The checked address to connect to: the first the host resolves to. */
  async resolve(host: string, port: number): Promise<OutboundTarget> {
    return (await this.resolveAll(host, port))[0] as OutboundTarget;
  }

  /** An HTTP and an HTTPS agent whose every connection (redirects included) goes to a checked address. */
  agents(): { http: http.Agent; https: https.Agent } {
    return { http: this.guardAgent(new http.Agent()), https: this.guardAgent(new https.Agent()) };
  }

  private guardAgent<A extends http.Agent>(agent: A): A {
    const connect = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) => {
      const host = String(options.host ?? options.hostname ?? 'localhost');
      const port = Number(options.port ?? (agent instanceof https.Agent ? 443 : 80));
      this.resolve(host, port).then(
        (target) => {
          // The checked address is the one connected to; TLS still checks the certificate for the name.
          let socket: Duplex | null | undefined;
          try {
            socket = connect({ ...options, host: target.address, family: target.family, lookup: undefined });
          } catch (error) {
            callback?.(error as Error, undefined as unknown as Duplex);
            return;
          }
          if (socket) callback?.(null, socket);
        },
        (error: Error) => callback?.(error, undefined as unknown as Duplex),
      );
      return undefined;
    };
    return agent;
  }
}

const NO_LOOPBACK: Policy = { allowLoopback: false, denyPrivate: false };

const guards = new WeakMap<object, Map<OutboundPurpose, OutboundGuard>>();

/** The guard of a purpose under this configuration (it reads the configuration at each check). */
export const outboundGuard = (
  config: Pick<Config, 'outbound' | 'port' | 'databaseUrl'>,
  purpose: OutboundPurpose,
): OutboundGuard => {
  const byPurpose = guards.get(config) ?? new Map<OutboundPurpose, OutboundGuard>();
  guards.set(config, byPurpose);
  const guard = byPurpose.get(purpose) ?? new OutboundGuard(config, purpose);
  byPurpose.set(purpose, guard);
  return guard;
};

/** The guard's refusal somewhere in an error a library wrapped (a cause, an aggregate of attempts). */
export const outboundRefusalIn = (error: unknown, depth = 0): OutboundRefused | undefined => {
  if (error instanceof OutboundRefused) return error;
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  return (
    outboundRefusalIn(cause, depth + 1) ??
    (Array.isArray(errors)
      ? errors.map((inner) => outboundRefusalIn(inner, depth + 1)).find(Boolean)
      : undefined)
  );
};
