/**
 * What an audit row keeps of a request's body (issue 33, DESIGN.md "Identity, tokens and the way out"): the
 * names of the fields sent, nested one level (`options.url`), and the values of the fields that are not
 * secret, cut at AUDIT_VALUE_MAX characters. A secret's value is never kept, and neither is a value that
 * could hold one out of sight (an object, an array of objects). Zod-free: the server's hook runs it on
 * every write.
 */

/** The longest value an audit row keeps of one field. */
export const AUDIT_VALUE_MAX = 200;
/** The most fields one row names (a body of thousands of keys is cut, the row says so with `…`). */
export const AUDIT_FIELDS_MAX = 50;

/** A field an audit row names: its value when it is a plain value and not a secret. */
export type AuditField = {
  name: string;
  /** The value as text, cut at AUDIT_VALUE_MAX; null when it is a secret or not a plain value. */
  value: string | null;
  /** The name says the value is a secret: it was not kept. */
  secret: boolean;
};

/**
 * Words that make a field a secret wherever they stand in its name (`newPassword`, `mfa_code`,
 * `secretAccessKey`, `X-Api-Key`): a value hidden by mistake costs a little reading, a secret kept costs much.
 */
const SECRET_WORDS = new Set([
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'token',
  'tokens',
  'credential',
  'credentials',
  'code',
  'codes',
  'key',
  'keys',
  'otp',
  'totp',
  'mfa',
  'pin',
  'hash',
  'salt',
  'cookie',
  'cookies',
  'signature',
  'private',
  'auth',
  'authorization',
  'cert',
  'certificate',
  'session',
  'sessionid',
]);
/** Run together in one lower-case word (`clientsecret`, `apikey`), these still make a secret. */
const SECRET_PARTS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'credential',
  'apikey',
  'privatekey',
];

/** The words of a field name: camelCase, snake_case, kebab-case and dotted names split. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether a field's name says it holds a secret (its value is then never kept). */
export const isSecretField = (name: string) => {
  const lower = name.toLowerCase();
  return SECRET_PARTS.some((part) => lower.includes(part)) || wordsOf(name).some((w) => SECRET_WORDS.has(w));
};

const REDACTED = '[redacted]';

/**
 * A value's text without the secrets text can carry in plain sight: the password of an address
 * (`ftp://user:pass@host`), an address's query (signed links, keys), a bearer token, and tokens of the
 * product's own kinds (API tokens, webhook secrets).
 */
export const scrubAuditValue = (text: string) =>
  text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s@]*@/gi, `$1${REDACTED}@`)
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)\?[^\s#]*/gi, `$1?${REDACTED}`)
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(/\b(mca|whsec)_[A-Za-z0-9_+/=-]+/g, REDACTED);

const cut = (text: string) =>
  text.length > AUDIT_VALUE_MAX ? `${text.slice(0, AUDIT_VALUE_MAX - 1)}…` : text;

const isPlain = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** A plain value (or an array of them) as text; null for what may hide anything (objects). */
const textOf = (value: unknown): string | null => {
  if (typeof value === 'string') return cut(scrubAuditValue(value));
  if (isPlain(value)) return String(value);
  if (Array.isArray(value) && value.every(isPlain)) return cut(scrubAuditValue(JSON.stringify(value)));
  return null;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields of a request body as an audit row keeps them: each key, and the keys of an object one level
 * down (`options.url`); a key under a secret one is secret too. A body that is not a JSON object (a CSV
 * file, an image) names no field.
 */
export const auditFieldsOf = (body: unknown): AuditField[] => {
  if (!isRecord(body)) return [];
  const fields: AuditField[] = [];
  let more = false;
  const add = (name: string, value: unknown, secret: boolean) => {
    if (fields.length < AUDIT_FIELDS_MAX) fields.push({ name, value: secret ? null : textOf(value), secret });
    else more = true;
  };
  for (const [key, value] of Object.entries(body)) {
    const secret = isSecretField(key);
    if (isRecord(value) && Object.keys(value).length > 0)
      for (const [inner, innerValue] of Object.entries(value))
        add(`${key}.${inner}`, innerValue, secret || isSecretField(inner));
    else add(key, value, secret);
  }
  if (more) fields.push({ name: '…', value: null, secret: false });
  return fields;
};
