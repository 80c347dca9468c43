/**
 * Fuzz of every operation of `/api/openapi.json` (issue 12, finding 5; DESIGN "HTTP conventions"): malformed
 * bodies, queries and path values generated from each operation's own schemas must answer a 4xx, never a
 * 5xx, and must leave the data as it was. Requests go as the administrator (signed in, with the
 * anti-forgery token) and, fewer of them, anonymously.
 *
 * Every generated input is malformed by construction: a string holding NUL, a value of the wrong JSON type,
 * a number or text outside its declared bounds (and integers beyond the columns' range: ids past int4,
 * anything past int8), an unknown field in a strict object, junk where a path or query value goes, a deep
 * junk structure or a body that is not JSON. Bodies are sent only to operations that declare one, with
 * path values that name existing rows (1), so validation is what stops them, not a missing row.
 *
 * `FUZZ_RUNS` sets the generated cases per operation (default 10), `FUZZ_SEED` replays a failing run.
 */
import { INT4_MAX } from '@media/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/seed/demo.ts';
import { buildTestApp, type TestApp, type TestClient, testDriver } from './harness.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

/**
 * Bookkeeping that requests write by design, left out of the fingerprint: `sessions` (each request
 * refreshes its session's last use), `login_failures` (an anonymous sign-in with a wrong password is
 * counted toward the lock-out), and the live-update tables `live_events`, `live_subscriptions`,
 * `live_changes` (event ids and their cursors belong to the connection, not to the data).
 */
const BOOKKEEPING_TABLES = new Set([
  'sessions',
  'login_failures',
  'live_events',
  'live_subscriptions',
  'live_changes',
]);

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
type Operation = {
  method: Method;
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema; undefined when the operation takes none (or not JSON). */
  body: Schema | undefined;
};
type FuzzRequest = { what: string; url: string; body?: unknown; raw?: string; contentType?: string };

/** Operations not fuzzed: `POST /api/logout` takes no input and ends the fuzzing client's own session. */
const SKIPPED = new Set(['POST /api/logout']);

/**
 * Operations for which `{}` is a valid request that acts, so it is not sent to them (every other operation
 * must refuse it, or take it as a change of nothing).
 */
const EMPTY_BODY_ACTS = new Set([
  // supportConnection defaults to true: `{}` opens the support connection.
  'POST /api/edgeServers/{id}/supportConnection',
  // Every field has a default: `{}` creates a folder named 'New arrivals folder'.
  'POST /api/accounts/{id}/arrivalsFolders',
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

const ops = (doc: { paths: Record<string, Record<string, unknown>> }): Operation[] =>
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
const requestsOf = (op: Operation): fc.Arbitrary<FuzzRequest> => {
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
const fixedRequestsOf = (op: Operation): FuzzRequest[] => {
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

const send = (client: TestClient, op: Operation, request: FuzzRequest) =>
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

// ---- the data, before and after -------------------------------------------------------------------------

const fingerprint = async (t: TestApp) => {
  const tables = (
    (await t.ctx.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )) as unknown as { rows: { name: string }[] }
  ).rows
    .map((r) => r.name)
    .filter((name) => !BOOKKEEPING_TABLES.has(name) && !name.startsWith('__drizzle'));
  const union = tables
    .map(
      (name) =>
        `select '${name}' as name, count(*)::int as n, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as h from "${name}" t`,
    )
    .join(' union all ');
  const rows = (
    (await t.ctx.db.execute(sql.raw(union))) as unknown as { rows: { name: string; n: number; h: string }[] }
  ).rows;
  return new Map(rows.map((r) => [r.name, `${r.n}:${r.h}`]));
};

const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([name, print]) => before.get(name) !== print).map(([name]) => name);

// ---- the tests ------------------------------------------------------------------------------------------

describe(`fuzz of every operation (${testDriver()})`, () => {
  let t: TestApp;
  let operations: Operation[];

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '10000000' });
    // Without a data directory the demo's media tree is made without files (no ffmpeg needed).
    await seedDemo(t.ctx.db, 'Demo-Passw0rd!');
    const doc = await t.client().get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    operations = ops(doc.body).filter((op) => !SKIPPED.has(`${op.method} ${op.path}`));
  });
  afterAll(() => t.close());

  const fuzz = async (client: TestClient, runs: number) => {
    const problems: string[] = [];
    let before = await fingerprint(t);
    for (const op of operations) {
      const name = `${op.method} ${op.path}`;
      // Malformed input may be taken as a change of nothing (2xx); these are the suspects if the data moved.
      const accepted: string[] = [];
      const check = async (request: FuzzRequest) => {
        const response = await send(client, op, request);
        if (response.status < 300) accepted.push(request.what);
        if (response.status >= 500) {
          problems.push(
            `${name} — ${request.what}: ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`,
          );
          return false;
        }
        return true;
      };
      for (const request of fixedRequestsOf(op)) await check(request);
      await fc.check(fc.asyncProperty(requestsOf(op), check), {
        numRuns: runs,
        seed: SEED,
        endOnFailure: true,
      });
      const after = await fingerprint(t);
      const changed = changedTables(before, after);
      if (changed.length > 0)
        problems.push(`${name} changed ${changed.join(', ')}; accepted: ${accepted.slice(0, 5).join(' | ')}`);
      before = after;
    }
    return [...new Set(problems)];
  };

  it('answers malformed input to every operation, signed in as the administrator, with a 4xx and no change', async () => {
    const admin = await t.admin();
    const problems = await fuzz(admin, RUNS);
    expect(problems, `seed ${SEED}`).toEqual([]);
    // Still signed in: the requests were judged as the administrator's, not refused as anonymous ones.
    expect((await admin.get('/api/me')).status).toBe(200);
  }, 600_000);

  it('answers malformed input to every operation, anonymously, with a 4xx and no change', async () => {
    const problems = await fuzz(t.client(), Math.ceil(RUNS / 4));
    expect(problems, `seed ${SEED}`).toEqual([]);
  }, 600_000);
});
