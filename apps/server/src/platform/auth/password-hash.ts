import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id, a const enum */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/**
 * Checked against when there is no hash to check (unknown user, no password yet), so that such a refusal
 * costs what a wrong password costs. Same parameters as real hashes; made once, at start.
 */
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

/**
 * Whether the password matches the hash. Always does one argon2 verification, against a dummy hash when
 * there is none, so the time taken does not tell whether the user exists or has a password.
 */
export const verifyPassword = async (passwordHash: string | null | undefined, password: string) => {
  const checked = passwordHash || (await dummyHash);
  try {
    return (await verify(checked, password)) && checked === passwordHash;
  } catch {
    return false;
  }
};
