import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INGEST_QUEUE_MODES } from '../ingest/ingest.ts';
import {
  ENDPOINT_TYPES,
  endpointOptionsWithDefaults,
  findEndpointType,
  OPTION_MESSAGES,
  optionProblems,
  SERVICE_TYPES,
  serviceOptionsWithDefaults,
  serviceTemplatesForEdgeType,
  serviceTypesForEdgeType,
} from './catalogue.ts';
import {
  capturesByItself,
  EDGE_CONTEXTS,
  EDGE_NAME_MAX,
  EDGE_SERVER_TYPES,
  edgeNameSchema,
  edgeResultInWords,
  endpointCategory,
  newEndpointName,
  type OptionDefinition,
  parseEdgeContext,
  SOURCE_ENDPOINT_TYPES,
  STREAM_ENDPOINT_TYPES,
  serviceTemplateSchema,
} from './edge.ts';
import { EDGE_LINKS } from './links.ts';
import { RTMP_APP, STREAM_ADDRESS_PLACEHOLDER, streamPushAddress } from './stream-address.ts';

describe('edge page context (spec2 §2, §5)', () => {
  it('accepts cloud, site and user', () => {
    for (const context of EDGE_CONTEXTS) expect(parseEdgeContext(context)).toBe(context);
  });

  it('reads an absent context as user', () => {
    expect(parseEdgeContext(undefined)).toBe('user');
    expect(parseEdgeContext(null)).toBe('user');
  });

  it("refuses any other value with 'Invalid context: {x}'", () => {
    expect(() => parseEdgeContext('admin')).toThrow('Invalid context: admin');
    expect(() => parseEdgeContext('')).toThrow('Invalid context: ');
    fc.assert(
      fc.property(
        fc.string().filter((value) => !(EDGE_CONTEXTS as readonly string[]).includes(value)),
        (value) => {
          expect(() => parseEdgeContext(value)).toThrow(`Invalid context: ${value}`);
        },
      ),
    );
  });
});

describe('edge server names (spec2 §5)', () => {
  it("allows up to 60 characters and answers 'Name too long' beyond", () => {
    expect(EDGE_NAME_MAX).toBe(60);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (raw) => {
        const name = `a${raw}`;
        const result = edgeNameSchema.safeParse(name);
        if (name.trim().length <= 60) expect(result.success).toBe(true);
        else expect(result.error?.issues[0]?.message).toBe('Name too long');
      }),
    );
    expect(edgeNameSchema.safeParse('   ').error?.issues[0]?.message).toBe('This field is required');
  });
});

describe('endpoint category (spec2 §3)', () => {
  it('is source for the source list, stream for the stream list', () => {
    for (const type of SOURCE_ENDPOINT_TYPES) expect(endpointCategory(type)).toBe('source');
    for (const type of STREAM_ENDPOINT_TYPES) expect(endpointCategory(type)).toBe('stream');
    expect(SOURCE_ENDPOINT_TYPES).toEqual([
      'LocalFolderEndpoint',
      'SmbEndpoint',
      'AvidISISEndpoint',
      'S3Endpoint',
      'AzureBlobEndpoint',
    ]);
    expect(STREAM_ENDPOINT_TYPES).toEqual([
      'HlsEndpoint',
      'RtmpPushEndpoint',
      'SdiEndpoint',
      'SrtEndpoint',
      'TeststreamEndpoint',
      'ZixiEndpoint',
    ]);
  });

  it('is none for anything else', () => {
    const known = new Set<string>([...SOURCE_ENDPOINT_TYPES, ...STREAM_ENDPOINT_TYPES]);
    fc.assert(
      fc.property(
        fc.string().filter((value) => !known.has(value)),
        (value) => {
          expect(endpointCategory(value)).toBe('none');
        },
      ),
    );
    expect(endpointCategory('localfolderendpoint')).toBe('none');
  });
});

describe('new endpoint names (spec2 §3)', () => {
  it("reads 'New {type name}'", () => {
    expect(newEndpointName('Local folder')).toBe('New Local folder');
    fc.assert(
      fc.property(fc.string(), (name) => {
        expect(newEndpointName(name)).toBe(`New ${name}`);
      }),
    );
  });
});

describe('edge links (spec2 §2)', () => {
  it('builds the edge server, services and endpoints pages', () => {
    expect(EDGE_LINKS.edgeServer(7, 12)).toBe('/users/7/edge#/12');
    expect(EDGE_LINKS.services(12, 'site')).toBe('/edge/12/services?context=site');
    expect(EDGE_LINKS.endpoints(12, 3, 'cloud')).toBe('/edge/12/services/3/endpoints?context=cloud');
    expect(EDGE_LINKS.endpoints(12, 3, 'user', 44)).toBe('/edge/12/services/3/endpoints?context=user#/44');
  });

  it('builds the ingest queue and unprocessed files pages of an edge server', () => {
    expect(EDGE_LINKS.edgeIngestQueue(12, 'user')).toBe('/edge/12/ingestQueue?context=user#/forEdge/12');
    expect(EDGE_LINKS.edgeIngestQueue(12, 'site', 'queued|streams')).toBe(
      '/edge/12/ingestQueue?context=site&filter=queued%7Cstreams#/forEdge/12',
    );
    expect(EDGE_LINKS.unprocessedFiles(12, 'cloud')).toBe('/edge/12/unprocessedFiles?context=cloud');
  });

  it('builds the ingest queue page of one endpoint, with its modes', () => {
    expect(EDGE_LINKS.endpointIngestQueue(12, 3, 44, 'site')).toBe(
      '/edge/12/services/3/endpoints/44/ingestQueue?context=site',
    );
    expect(EDGE_LINKS.endpointIngestQueue(12, 3, 44, 'user', 'streams')).toBe(
      '/edge/12/services/3/endpoints/44/ingestQueue?context=user&mode=streams&thumbsize=1.0',
    );
  });

  it('builds the arrivals and account ingest queue pages with their modes', () => {
    expect(EDGE_LINKS.arrivals(5)).toBe('/accounts/5/arrivals');
    expect(EDGE_LINKS.arrivals(5, 9)).toBe('/accounts/5/arrivals#9');
    expect(EDGE_LINKS.arrivalsIngestQueue(5, 9)).toBe('/accounts/5/arrivals/9/ingestQueue');
    expect(EDGE_LINKS.arrivalsIngestQueue(5, 9, 'files')).toBe(
      '/accounts/5/arrivals/9/ingestQueue?mode=files',
    );
    expect(EDGE_LINKS.accountIngestQueue(5)).toBe('/accounts/5/ingestQueue');
    expect(EDGE_LINKS.accountIngestQueue(5, 'streams')).toBe(
      '/accounts/5/ingestQueue?mode=streams&thumbsize=1.0',
    );
    expect(EDGE_LINKS.accountIngestQueue(5, 'unprocessed')).toBe('/accounts/5/ingestQueue?mode=unprocessed');
  });

  it('puts every id where it belongs, for any ids, contexts and modes', () => {
    const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(
        id,
        id,
        id,
        fc.constantFrom(...EDGE_CONTEXTS),
        fc.constantFrom(...INGEST_QUEUE_MODES),
        (edge, service, endpoint, context, mode) => {
          expect(EDGE_LINKS.endpoints(edge, service, context, endpoint)).toBe(
            `/edge/${edge}/services/${service}/endpoints?context=${context}#/${endpoint}`,
          );
          expect(EDGE_LINKS.edgeIngestQueue(edge, context)).toMatch(
            new RegExp(`^/edge/${edge}/ingestQueue\\?context=${context}#/forEdge/${edge}$`),
          );
          expect(EDGE_LINKS.arrivalsIngestQueue(service, endpoint, mode)).toMatch(
            new RegExp(`^/accounts/${service}/arrivals/${endpoint}/ingestQueue\\?mode=${mode}`),
          );
        },
      ),
    );
  });
});

describe('the catalogue of service and endpoint types', () => {
  it('describes every endpoint type of the spec, in its category', () => {
    expect(ENDPOINT_TYPES.map((type) => type.id)).toEqual([
      ...SOURCE_ENDPOINT_TYPES,
      ...STREAM_ENDPOINT_TYPES,
    ]);
    for (const type of ENDPOINT_TYPES) {
      expect(type.category).toBe(endpointCategory(type.id));
      expect(new Set(type.options.map((option) => option.name)).size).toBe(type.options.length);
      for (const option of type.options)
        if (option.kind === 'select') expect(option.choices).toContain(option.default);
    }
    // spec2 §4: stream endpoints carry autoCapture; control is allowed unless it is 'ondemand'.
    for (const id of STREAM_ENDPOINT_TYPES)
      expect(
        findEndpointType(id)?.options.find((option) => option.name === 'autoCapture')?.choices,
      ).toContain('ondemand');
  });

  it('gives every service type known endpoint types, and relays only stream services', () => {
    const known = new Set(ENDPOINT_TYPES.map((type) => type.id));
    for (const type of SERVICE_TYPES) for (const id of type.endpointTypeIds) expect(known.has(id)).toBe(true);
    expect(serviceTypesForEdgeType('server')).toEqual(SERVICE_TYPES);
    for (const type of serviceTypesForEdgeType('relay'))
      expect(type.endpointTypeIds.every((id) => endpointCategory(id) === 'stream')).toBe(true);
    expect(EDGE_SERVER_TYPES.map((type) => type.id)).toEqual(['server', 'relay']);
  });

  it('numbers templates template-1, template-2, ... and marks them as templates, with valid options', () => {
    for (const edgeType of EDGE_SERVER_TYPES.map((type) => type.id)) {
      const templates = serviceTemplatesForEdgeType(edgeType);
      expect(templates.length).toBeGreaterThan(0);
      templates.forEach((template, index) => {
        expect(serviceTemplateSchema.parse(template)).toEqual(template);
        expect(template.id).toBe(`template-${index + 1}`);
        expect(template.isTemplate).toBe(true);
        const type = SERVICE_TYPES.find(
          (candidate) => candidate.id === template.typeId,
        ) as (typeof SERVICE_TYPES)[0];
        const values = Object.fromEntries(
          Object.entries(template.options).map(([name, o]) => [name, o.value]),
        );
        expect(optionProblems(type.options, values)).toEqual({});
      });
    }
  });
});

describe('option values against their definitions', () => {
  const definitions: OptionDefinition[] = [
    { name: 'path', label: 'Folder path', kind: 'text', default: '', required: true },
    { name: 'port', label: 'Port', kind: 'number', default: '9000', required: true },
    { name: 'recursive', label: 'Sub-folders', kind: 'boolean', default: 'true', required: false },
    { name: 'mode', label: 'Mode', kind: 'select', choices: ['a', 'b'], default: 'a', required: true },
  ];

  it('refuses unknown names, missing required values, and values of the wrong kind', () => {
    expect(optionProblems(definitions, { path: '/in' })).toEqual({});
    expect(optionProblems(definitions, { path: '/in', colour: 'red' })).toEqual({
      colour: OPTION_MESSAGES.unknown('colour'),
    });
    expect(optionProblems(definitions, {})).toEqual({ path: OPTION_MESSAGES.required('Folder path') });
    expect(optionProblems(definitions, { path: '/in', port: 'x', recursive: 'maybe', mode: 'c' })).toEqual({
      port: OPTION_MESSAGES.notNumber('Port'),
      recursive: OPTION_MESSAGES.notBoolean('Sub-folders'),
      mode: OPTION_MESSAGES.notChoice('Mode', ['a', 'b']),
    });
    expect(optionProblems(definitions, { path: '/in', port: 9001, recursive: false, mode: 'b' })).toEqual({});
  });

  it('fills in defaults, typed by kind, and keeps what was given', () => {
    expect(endpointOptionsWithDefaults(definitions, { path: '/in', port: '8000' })).toEqual({
      path: '/in',
      port: 8000,
      recursive: true,
      mode: 'a',
    });
    expect(serviceOptionsWithDefaults(definitions, { mode: { value: 'b' } })).toEqual({
      path: { value: '' },
      port: { value: '9000' },
      recursive: { value: 'true' },
      mode: { value: 'b' },
    });
  });

  it('accepts any value of the right kind for every endpoint type, after defaults', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINT_TYPES),
        fc.string({ minLength: 1, maxLength: 20 }),
        (type, word) => {
          const values: Record<string, string | number | boolean> = {};
          for (const option of type.options)
            values[option.name] =
              option.kind === 'number'
                ? word.length
                : option.kind === 'boolean'
                  ? word.length % 2 === 0
                  : option.kind === 'select'
                    ? (option.choices?.[word.length % option.choices.length] as string)
                    : `x${word}`;
          expect(optionProblems(type.options, values)).toEqual({});
          const filled = endpointOptionsWithDefaults(type.options, values);
          expect(optionProblems(type.options, filled)).toEqual({});
          expect(Object.keys(filled).sort()).toEqual(type.options.map((option) => option.name).sort());
        },
      ),
    );
  });
});

describe('where senders push a stream endpoint', () => {
  it('gives the RTMP URL and key, the SRT listener address, and nothing for pulled or generated streams', () => {
    expect(streamPushAddress('RtmpPushEndpoint', { port: 1936, streamKey: ' studio ' }, 'edge.tv')).toEqual({
      url: `rtmp://edge.tv:1936/${RTMP_APP}`,
      streamKey: 'studio',
    });
    expect(streamPushAddress('RtmpPushEndpoint', {}, '')).toEqual({
      url: `rtmp://${STREAM_ADDRESS_PLACEHOLDER}:1935/${RTMP_APP}`,
      streamKey: '',
    });
    expect(streamPushAddress('SrtEndpoint', { mode: 'listener', port: '9001' }, '10.0.0.5')).toEqual({
      url: 'srt://10.0.0.5:9001',
    });
    expect(streamPushAddress('SrtEndpoint', { mode: 'caller', port: '9001' }, 'edge.tv')).toBeUndefined();
    expect(streamPushAddress('HlsEndpoint', { url: 'http://x' }, 'edge.tv')).toBeUndefined();
    expect(streamPushAddress('TeststreamEndpoint', {}, 'edge.tv')).toBeUndefined();
  });
});

describe('which stream endpoints the agent records by itself', () => {
  it('always and ondemand capture by themselves; scheduled (the default) waits for Start or a schedule', () => {
    expect(capturesByItself({ autoCapture: 'always' })).toBe(true);
    expect(capturesByItself({ autoCapture: 'ondemand' })).toBe(true);
    expect(capturesByItself({ autoCapture: 'scheduled' })).toBe(false);
    expect(capturesByItself({})).toBe(false);
    const stream = findEndpointType('RtmpPushEndpoint');
    expect(stream?.options.find((option) => option.name === 'autoCapture')?.default).toBe('scheduled');
  });
});

describe('edge action results in words (issue 18)', () => {
  it('names each figure an agent answers with, its unit after the value', () => {
    expect(edgeResultInWords('latencyMs', 12.5)).toEqual({
      label: 'Time to reach the cloud',
      value: '12.5 ms',
    });
    expect(edgeResultInWords('freeMemoryMb', 512)).toEqual({ label: 'Free memory', value: '512 MB' });
    expect(edgeResultInWords('rounds', 3)).toEqual({ label: 'Requests timed', value: '3' });
    expect(edgeResultInWords('done', true)).toEqual({ label: 'Done', value: 'yes' });
    expect(edgeResultInWords('latencyMs', null)).toEqual({ label: 'Time to reach the cloud', value: '–' });
  });
  it('reads a figure it does not know as words, never as a camelCase id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]+([A-Z][a-z]+)+$/), (name) => {
        expect(edgeResultInWords(name, 1).label).not.toMatch(/[a-z][A-Z]/);
      }),
    );
  });
});
