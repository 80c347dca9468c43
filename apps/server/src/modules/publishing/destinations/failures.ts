import { DELIVERY_FAILURES } from '@media/contract';
import { FTPError } from 'basic-ftp';
import { outboundRefusalIn } from '../../../platform/outbound.ts';
import { PublishRefused } from './common.ts';

/** Node's codes of a connection that was refused, timed out, not found, unreachable or dropped. */
const CODES: Record<string, 'refused' | 'timedOut' | 'notFound' | 'unreachable' | 'dropped'> = {
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timedOut',
  ESOCKETTIMEDOUT: 'timedOut',
  UND_ERR_CONNECT_TIMEOUT: 'timedOut',
  ENOTFOUND: 'notFound',
  EAI_AGAIN: 'notFound',
  EAI_NONAME: 'notFound',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ECONNRESET: 'dropped',
  EPIPE: 'dropped',
  ECONNABORTED: 'dropped',
};

/** A certificate Node does not trust: no retry makes it trusted. */
export const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** S3's answers that no retry mends: the keys are refused, or the bucket is not there. */
const S3_AUTHENTICATION = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'Forbidden',
]);
const S3_MISSING = new Set(['NoSuchBucket', 'NotFound', 'NoSuchKey']);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? codeOf(cause) : undefined;
};

/** An error that says, in our words, what failed; the run is tried again. */
export class DeliveryFailed extends Error {}

/**
 * A destination's failure in our words (issue 30 item 2): refused, timed out, not found, authentication
 * failed… never the peer's banner or body. The guard's refusals, refused credentials, untrusted
 * certificates and missing targets end the publish; anything else is tried again.
 */
export const deliveryFailure = (error: unknown, address: string): Error => {
  if (error instanceof PublishRefused) return error;
  const refused = outboundRefusalIn(error);
  if (refused) return new PublishRefused(refused.message);
  if (error instanceof DeliveryFailed) return error;
  const code = codeOf(error);
  if (code && CERTIFICATE_CODES.has(code)) return new PublishRefused(DELIVERY_FAILURES.certificate(address));
  if (error instanceof FTPError) {
    if (error.code === 530) return new PublishRefused(DELIVERY_FAILURES.authentication(address));
    if (error.code >= 550 && error.code <= 553) return new PublishRefused(DELIVERY_FAILURES.missing(address));
    return new DeliveryFailed(DELIVERY_FAILURES.other(address));
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string') {
    if (S3_AUTHENTICATION.has(name)) return new PublishRefused(DELIVERY_FAILURES.authentication(address));
    if (S3_MISSING.has(name)) return new PublishRefused(DELIVERY_FAILURES.missing(address));
    if (name === 'TimeoutError') return new DeliveryFailed(DELIVERY_FAILURES.timedOut(address));
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  if (status === 401 || status === 403) return new PublishRefused(DELIVERY_FAILURES.authentication(address));
  const kind = code ? CODES[code] : undefined;
  if (kind === 'notFound')
    return new DeliveryFailed(DELIVERY_FAILURES.notFound(address.replace(/:\d+$/, '')));
  if (kind) return new DeliveryFailed(DELIVERY_FAILURES[kind](address));
  if (status) return new DeliveryFailed(DELIVERY_FAILURES.answered(address, status));
  return new DeliveryFailed(DELIVERY_FAILURES.other(address));
};
