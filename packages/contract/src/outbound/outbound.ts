/**
 * DESIGN "Identity, tokens and the way out", last point: the addresses a connection that a user configures
 * (a publishing destination, later a webhook) may not reach, and the words that say why.
 */
export const OUTBOUND_RULES = [
  'loopback',
  'link-local',
  'cloud-metadata',
  'unspecified',
  'multicast',
  'broadcast',
  'private',
  'own-port',
  'own-database',
] as const;
export type OutboundRule = (typeof OUTBOUND_RULES)[number];

/** What each rule calls an address it refuses ("… is a link-local address"). */
const RULE_WORDS: Record<OutboundRule, string> = {
  loopback: 'a loopback address',
  'link-local': 'a link-local address',
  'cloud-metadata': 'a cloud metadata address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  private: 'a private address',
  'own-port': "this server's own port",
  'own-database': "this server's own database",
};

/** Who connects: the words end the refusal ("which publishing may not reach"). */
export type OutboundPurpose = 'publishing' | 'webhooks';

export const msgOutboundRefused = (address: string, rule: OutboundRule, purpose: OutboundPurpose) =>
  `The address ${address} is ${RULE_WORDS[rule]}, which ${purpose} may not reach`;

/** Host names that only ever mean a cloud's metadata service. */
export const CLOUD_METADATA_NAMES = ['metadata.google.internal', 'metadata.goog'] as const;

/** Schemes an address typed for a call (a webhook, an S3 endpoint) may use. */
export const OUTBOUND_URL_SCHEMES = ['http:', 'https:'] as const;
export const msgOutboundScheme = (scheme: string) =>
  `Only http and https addresses can be called, not ${scheme.replace(/:$/, '')}`;
export const MSG_OUTBOUND_BAD_URL = 'This is not an http or https address';

/**
 * A destination's failure in a publish's log, in our words: never the peer's banner or body (issue 30
 * item 2), so a log cannot be used to read another system's answers.
 */
export const DELIVERY_FAILURES = {
  refused: (address: string) => `${address} refused the connection`,
  timedOut: (address: string) => `${address} did not answer in time`,
  notFound: (host: string) => `The host ${host} was not found`,
  unreachable: (address: string) => `${address} cannot be reached from this server`,
  dropped: (address: string) => `${address} closed the connection`,
  authentication: (address: string) => `${address} refused the credentials`,
  missing: (address: string) => `${address} answered that the target was not found or may not be written`,
  certificate: (address: string) => `The certificate of ${address} is not trusted`,
  answered: (address: string, status: number) => `${address} answered ${status}`,
  other: (address: string) => `The transfer to ${address} failed`,
} as const;

/** What the FTP module's connection test says of a failure: only a few words, never the peer's answer. */
export const FTP_TEST_PROBLEMS = {
  refused: 'refused',
  connectionRefused: 'the connection was refused',
  timedOut: 'no answer within 3 seconds',
  notFound: 'the host name was not found',
  unreachable: 'the host cannot be reached',
} as const;
