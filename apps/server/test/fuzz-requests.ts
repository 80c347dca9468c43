/**
 * The fuzz test's requests (fuzz.test.ts): operations read from `/api/openapi.json`, and for each, requests
 * whose input is malformed by construction, generated from the operation's own schemas.
 */
import { INT4_MAX } from '@media/contract';
import fc from 'fast-check';
import type { TestClient } from './harness.ts';

type Schema = {
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: Schema };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Operation = {
  method: Method;
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema; undefined when the operation takes none (or not JSON). */
  body: Schema | undefined;
};
export type FuzzRequest = { what: string; url: string; body?: unknown; raw?: string; contentType?: string };

/** Operations not fuzzed: `POST /api/logout` takes no input and ends the fuzzing client's own session. */
export const SKIPPED = new Set(['POST /api/logout']);

/**
 * Operations for which `{}` is a valid request that acts, so it is not sent to them (every other operation
 * must refuse it, or take it as a change of nothing).
 */
const EMPTY_BODY_ACTS = new Set([
  // supportConnection defaults to true: `{}` opens the support connection.
  'POST /api/edgeServers/{id}/supportConnection',
  // Every field has a default: `{}` creates a folder named 'New arrivals folder'.
  'POST /api/accounts/{id}/arrivalsFolders',
  // Ending sessions takes no input: `{}` ends them (the caller's own stays).
  'POST /api/me/sessions/trash',
  'POST /api/sessions/trash',
  'POST /api/users/{id}/sessions/trash',
]);

const NUL = '\u0000';
const JUNK_NUMBER_TEXTS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '2147483648',
  '99999999999',
  '99999999999999999999',
  '1e400',
  'NaN',
  '%00',
];
const JUNK_TEXTS = ['a%00b', '%00', 'x'.repeat(3000), '%E0%A4%A', '..%2F..%2Fetc'];

export const ops = (doc: { paths: Record<string, Record<string, unknown>> }): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, raw]) => {
      const op = raw as {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      };
      return {
        method: method.toUpperCase() as Method,
        path,
        parameters: (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
      };
    }),
  );

// ---- valid-looking values from a schema ---------------------------------------------------------------

const lowerBound = (s: Schema) =>
  s.minimum === undefined ? undefined : s.exclusiveMinimum === true ? s.minimum + 1 : s.minimum;
const upperBound = (s: Schema) =>
  s.maximum === undefined ? undefined : s.exclusiveMaximum === true ? s.maximum - 1 : s.maximum;

const branches = (s: Schema) => s.anyOf ?? s.oneOf ?? (s.allOf ? [s.allOf[0] as Schema] : undefined);

/** Values that the schema accepts, small ones (ids near 1 name demo rows). */
const sampleOf = (s: Schema, depth = 0): fc.Arbitrary<unknown> => {
  const choice = branches(s);
  if (choice) return fc.oneof(...choice.map((b) => sampleOf(b, depth)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case 'string': {
      if (s.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (s.pattern)
        return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1000));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 12, 12) });
    }
    case 'integer': {
      const min = Math.max(lowerBound(s) ?? 0, -1000);
      return fc.integer({ min, max: Math.max(min, Math.min(upperBound(s) ?? min + 5, min + 5)) });
    }
    case 'number': {
      const min = lowerBound(s) ?? 0;
      return fc.double({ min, max: Math.min(upperBound(s) ?? min + 100, min + 100), noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = depth > 4 ? fc.constant(null) : sampleOf(s.items ?? {}, depth + 1);
      const minLength = s.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 2, 2)) });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v, depth + 1)]),
      );
      const record = fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
      if (typeof s.additionalProperties !== 'object') return record;
      const extra = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }),
        sampleOf(s.additionalProperties, depth + 1),
        { maxKeys: 2 },
      );
      return fc.tuple(record, extra).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
};

// ---- malformed values ---------------------------------------------------------------------------------

type Location = { path: (string | number)[]; schema: Schema; value: unknown };

/** Every place in `value` with the schema that governs it. */
const locations = (value: unknown, s: Schema, path: (string | number)[] = []): Location[] => {
  const here: Location = { path, schema: s, value };
  if (branches(s)) return [here];
  if (Array.isArray(value) && s.type === 'array')
    return [here, ...value.flatMap((item, i) => locations(item, s.items ?? {}, [...path, i]))];
  if (value && typeof value === 'object' && s.type === 'object') {
    const inner = Object.entries(value).flatMap(([k, v]) => {
      const child =
        s.properties?.[k] ??
        (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      return child ? locations(v, child, [...path, k]) : [];
    });
    return [here, ...inner];
  }
  return [here];
};

/** Values the schema at one place refuses, whatever else the body holds. */
const refusedBy = (s: Schema, name: string | number | undefined): unknown[] => {
  const out: unknown[] = [`x${NUL}y`];
  if (branches(s) || !s.type) return out;
  const wrongTypes: Record<string, unknown[]> = {
    string: [{}, [], true],
    integer: [{}, [], true, 'abc'],
    number: [{}, [], true, 'abc'],
    boolean: [{}, [], 'maybe', 7],
    array: [{}, 'x', 5],
    object: [[], 'x', 5],
  };
  out.push(...(wrongTypes[s.type] ?? []));
  if (!s.nullable) out.push(null);
  if (s.type === 'integer' || s.type === 'number') {
    const min = lowerBound(s);
    const max = upperBound(s);
    if (min !== undefined && min > -1e15) out.push(min - 1);
    if (max !== undefined && max < Number.MAX_SAFE_INTEGER) out.push(max + 1);
  }
  if (s.type === 'integer') {
    out.push(1.5, 1e20, -1e20);
    // Ids name serial (int4) columns.
    if (typeof name === 'string' && /id$/i.test(name)) out.push(INT4_MAX + 1, 99_999_999_999);
  }
  if (s.type === 'string') {
    if (s.maxLength !== undefined && s.maxLength < 100_000) out.push('x'.repeat(s.maxLength + 1));
    if (s.minLength) out.push('');
    if (s.enum) out.push('not-one-of-them');
    if (s.pattern && !new RegExp(s.pattern).test('\u2603!')) out.push('\u2603!');
  }
  if (s.type === 'array') {
    if (s.minItems) out.push([]);
  }
  return out;
};

const setAt = (root: unknown, path: (string | number)[], value: unknown): unknown => {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
  return copy;
};

/** One body with one malformed place in it. */
const malformedBody = (schema: Schema) =>
  fc.tuple(sampleOf(schema), fc.nat(), fc.nat(), fc.boolean()).map(([sample, where, which, addUnknown]) => {
    const places = locations(sample, schema);
    const strict = places.filter(
      (p) => p.schema.additionalProperties === false && p.value !== null && typeof p.value === 'object',
    );
    if (addUnknown && strict.length > 0) {
      const place = strict[where % strict.length] as Location;
      return {
        what: `unknown field at /${place.path.join('/')}`,
        body: setAt(sample, [...place.path, 'zzUnknownField'], 1),
      };
    }
    const place = places[where % places.length] as Location;
    const refused = refusedBy(place.schema, place.path.at(-1));
    const value = refused[which % refused.length];
    return {
      what: `${JSON.stringify(value)?.slice(0, 40)} at /${place.path.join('/')}`,
      body: setAt(sample, place.path, value),
    };
  });

const deepArray = (depth: number) => `${'['.repeat(depth)}"${'\\u0000'}"${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}"x\\u0000"${'}'.repeat(depth)}`;

/** Whole bodies that are wrong for any operation taking a JSON body. */
const JUNK_BODIES: { what: string; raw: string }[] = [
  { what: 'a body that is not JSON', raw: 'this is not JSON {' },
  { what: 'an empty JSON body', raw: '' },
  { what: 'truncated JSON', raw: '{"a":' },
  { what: 'a JSON string holding NUL', raw: '"\\u0000"' },
  { what: 'deeply nested arrays', raw: deepArray(2000) },
  { what: 'deeply nested objects', raw: deepObject(500) },
  { what: 'a number too large for any column', raw: '1e400' },
];

// ---- requests -------------------------------------------------------------------------------------------

const fillPath = (op: Operation, junk?: { name: string; value: string }) =>
  op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (junk?.name === name) return junk.value;
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    const s = param?.schema ?? {};
    if (s.enum) return encodeURIComponent(String(s.enum[0]));
    return s.type === 'integer' || s.type === 'number' ? '1' : 'x';
  });

const withQuery = (url: string, query: Record<string, string>) => {
  const text = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
    .join('&');
  return text ? `${url}?${text}` : url;
};

/** The query an operation needs: its required parameters with valid values. */
const requiredQuery = (op: Operation) =>
  Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [
        p.name,
        p.schema.enum ? String(p.schema.enum[0]) : p.schema.type === 'integer' ? '1' : 'x',
      ]),
  );

const junkFor = (s: Schema): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...(s.type === 'integer' || s.type === 'number' ? JUNK_NUMBER_TEXTS : JUNK_TEXTS)),
    fc.string({ maxLength: 8 }).map((v) => `${encodeURIComponent(v)}%00`),
    fc.integer({ min: INT4_MAX + 1, max: Number.MAX_SAFE_INTEGER }).map(String),
    fc.bigInt({ min: 2n ** 63n, max: 2n ** 80n }).map(String),
  );

/** Generated requests for one operation: junk in one path or query value, or one malformed place in the body. */
export const requestsOf = (op: Operation): fc.Arbitrary<FuzzRequest> => {
  const choices: fc.Arbitrary<FuzzRequest>[] = [];
  for (const p of op.parameters) {
    // Junk in one path or query value, the others valid and no body: nothing valid is left to act on.
    choices.push(
      junkFor(p.schema).map((value) =>
        p.in === 'path'
          ? {
              what: `path ${p.name}=${value.slice(0, 40)}`,
              url: withQuery(fillPath(op, { name: p.name, value }), requiredQuery(op)),
            }
          : {
              what: `query ${p.name}=${value.slice(0, 40)}`,
              url: withQuery(fillPath(op), { ...requiredQuery(op), [p.name]: value }),
            },
      ),
    );
  }
  if (op.body) {
    const url = withQuery(fillPath(op), requiredQuery(op));
    choices.push(malformedBody(op.body).map((m) => ({ what: `body: ${m.what}`, url, body: m.body })));
  }
  return choices.length > 0 ? fc.oneof(...choices) : fc.constant({ what: 'no input', url: fillPath(op) });
};

/** Requests sent to every operation regardless of the random ones. */
export const fixedRequestsOf = (op: Operation): FuzzRequest[] => {
  const out: FuzzRequest[] = [];
  for (const p of op.parameters) {
    const values = p.schema.type === 'integer' ? ['99999999999', '99999999999999999999', 'a%00b'] : ['a%00b'];
    for (const value of values)
      out.push(
        p.in === 'path'
          ? {
              what: `path ${p.name}=${value}`,
              url: withQuery(fillPath(op, { name: p.name, value }), requiredQuery(op)),
            }
          : {
              what: `query ${p.name}=${value}`,
              url: withQuery(fillPath(op), { ...requiredQuery(op), [p.name]: value }),
            },
      );
  }
  if (op.body) {
    const url = withQuery(fillPath(op), requiredQuery(op));
    if (!EMPTY_BODY_ACTS.has(`${op.method} ${op.path}`)) out.push({ what: 'body {}', url, body: {} });
    for (const junk of JUNK_BODIES) out.push({ what: junk.what, url, raw: junk.raw });
    out.push({
      what: 'a form body',
      url,
      raw: 'name=a&id=1',
      contentType: 'application/x-www-form-urlencoded',
    });
    for (const [name, s] of Object.entries(op.body.properties ?? {}))
      if (s.type === 'string') out.push({ what: `NUL in ${name}`, url, body: { [name]: `a${NUL}b` } });
  }
  return out;
};

export const send = (client: TestClient, op: Operation, request: FuzzRequest) =>
  request.raw !== undefined
    ? client.request({
        method: op.method,
        url: request.url,
        body: request.raw,
        headers: { 'content-type': request.contentType ?? 'application/json' },
      })
    : client.request({
        method: op.method,
        url: request.url,
        ...(op.method === 'GET' ? {} : { body: request.body }),
      });
