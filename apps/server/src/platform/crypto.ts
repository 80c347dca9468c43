import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret from the CSPRNG, base64url; 32 bytes = 256 bits. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => hash('sha256', value, 'base64url');

export const hmac = (key: string, value: string) =>
  createHmac('sha256', key).update(value).digest('base64url');

export const safeEqual = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};
