import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_MESSAGES, nodePostSchema, nodesQuerySchema, nodesTransferSchema } from './nodes.ts';
import {
  accountPath,
  accumulatedMetadata,
  artefactMetadata,
  clipThumbPoint,
  displayName,
  editorNodeId,
  folderAccessOf,
  folderApiPathOf,
  freeName,
  isWithin,
  mediaManagerLink,
  nodeLevel,
  nodeRights,
  nodeTypesShown,
  parentPathOf,
  parseEditorNodeId,
  searchKeyOf,
  splitAccountPath,
  transferOperations,
  transferVerb,
} from './rules.ts';

const ALL = new Set(['canView', 'canEdit', 'canLog', 'canManageAccount']);
const VIEWER = new Set(['canView']);
const LOGGER = new Set(['canView', 'canLog']);
const EDITOR = new Set(['canView', 'canEdit', 'canLog']);
const full = nodeRights(ALL, 'edit');
const readOnly = nodeRights(VIEWER, 'edit');

const segment = fc.stringMatching(/^[A-Za-z0-9 ._-]{1,12}$/);

describe('node paths', () => {
  it('count the level as segments minus one and find the parent', () => {
    expect(nodeLevel('/acme')).toBe(0);
    expect(nodeLevel('/acme/News/Today')).toBe(2);
    expect(parentPathOf('/acme/News/Today')).toBe('/acme/News');
    expect(folderApiPathOf('acme', '/Arrivals/Live/Match')).toBe('/acme/Arrivals/Live');
    expect(folderApiPathOf('acme', '/Clip')).toBe('/acme');
    expect(parentPathOf('/acme')).toBeNull();
  });

  it('split into the account and the inner path, and join back', () => {
    fc.assert(
      fc.property(segment, fc.array(segment, { maxLength: 5 }), (account, rest) => {
        const path = `/${[account, ...rest].join('/')}`;
        const { accountName, innerPath } = splitAccountPath(path);
        expect(accountName).toBe(account);
        expect(accountPath(accountName, innerPath)).toBe(path);
      }),
    );
  });

  it('tell a subtree from a sibling that shares a prefix', () => {
    expect(isWithin('/acme/News/Today', '/acme/News')).toBe(true);
    expect(isWithin('/acme/News', '/acme/News')).toBe(true);
    expect(isWithin('/acme/Newsroom', '/acme/News')).toBe(false);
    expect(isWithin('/anything', '/')).toBe(true);
  });

  it("strip ' - Search results' from names", () => {
    expect(displayName('Goals - Search results')).toBe('Goals');
    expect(displayName('Goals')).toBe('Goals');
  });
});

describe('editor node ids (spec3 §5)', () => {
  it('round-trip five parts', () => {
    const id = editorNodeId(4, 17, 'source', 9);
    expect(id.split(',')).toHaveLength(5);
    expect(parseEditorNodeId(id)).toEqual({ accountId: 4, nodeId: 17, type: 'source', mediaId: 9 });
  });

  it('refuse fewer than five parts with the spec message', () => {
    expect(() => parseEditorNodeId('node,4,17,source')).toThrow(
      NODE_MESSAGES.unexpectedNodeId('node,4,17,source'),
    );
    expect(NODE_MESSAGES.unexpectedNodeId('x')).toBe('Unexpected node id x editor cannot open item');
  });
});

describe('artefact metadata (spec3 §3)', () => {
  it("turns a field59 url into 'Field59 Key' and ignores others", () => {
    expect(artefactMetadata([{ url: 'field59://abc123' }, { url: 'https://example.com/a' }])).toEqual({
      'Field59 Key': 'abc123',
    });
    expect(artefactMetadata([])).toEqual({});
  });
});

describe('folder access', () => {
  const viewer = 3;
  it('defaults to the role itself and lets the nearest entry win', () => {
    expect(folderAccessOf(viewer, [[], []])).toBe('edit');
    expect(folderAccessOf(viewer, [[{ roleId: viewer, access: 'view' }], []])).toBe('view');
    expect(
      folderAccessOf(viewer, [[{ roleId: viewer, access: 'view' }], [{ roleId: viewer, access: 'edit' }]]),
    ).toBe('edit');
    expect(folderAccessOf(viewer, [[{ roleId: 9, access: 'none' }]])).toBe('edit');
  });

  it('hides a whole subtree below a hidden folder', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.record({ roleId: fc.constantFrom(3, 4), access: fc.constantFrom('view', 'edit') })),
        ),
        fc.array(
          fc.array(fc.record({ roleId: fc.constantFrom(3, 4), access: fc.constantFrom('view', 'edit') })),
        ),
        (above, below) => {
          const unique = (list: { roleId: number; access: 'view' | 'edit' }[]) =>
            list.filter((entry, index) => list.findIndex((other) => other.roleId === entry.roleId) === index);
          const chain = [
            ...above.map(unique),
            [{ roleId: viewer, access: 'none' as const }],
            ...below.map(unique),
          ];
          expect(folderAccessOf(viewer, chain)).toBe('none');
        },
      ),
    );
  });

  it('never limits a null role (managers acting as themselves)', () => {
    expect(folderAccessOf(null, [[{ roleId: viewer, access: 'none' }]])).toBe('edit');
  });
});

describe('node rights', () => {
  it('follow the role and the folder access', () => {
    expect(nodeRights(VIEWER, 'edit')).toEqual({
      canView: true,
      canEdit: false,
      canLog: false,
      canManage: false,
    });
    expect(nodeRights(LOGGER, 'edit').canLog).toBe(true);
    expect(nodeRights(EDITOR, 'view')).toEqual({
      canView: true,
      canEdit: false,
      canLog: false,
      canManage: false,
    });
    expect(nodeRights(ALL, 'none')).toEqual({
      canView: false,
      canEdit: false,
      canLog: false,
      canManage: false,
    });
    expect(nodeRights(new Set(), 'edit').canView).toBe(false);
  });
});

describe('transfer operations', () => {
  const check = (
    srcPaths: string[],
    dstPath: string,
    overrides: Partial<Parameters<typeof transferOperations>[0]> = {},
  ) =>
    transferOperations({
      srcPaths,
      dstPath,
      dstType: 'folder',
      srcRights: srcPaths.map(() => ({ atParent: full, atNode: full })),
      dstRights: full,
      ...overrides,
    });

  it('offers move and copy into another folder of the account', () => {
    expect(check(['/acme/News/Clip'], '/acme/Sport')).toEqual(['move', 'copy']);
  });

  it('offers only copy where the sources already are', () => {
    expect(check(['/acme/News/Clip'], '/acme/News')).toEqual(['copy']);
  });

  it('offers nothing into a non-folder, another account, the root as source, or a folder into itself', () => {
    expect(check(['/acme/News/Clip'], '/acme/Sport', { dstType: 'source' })).toEqual([]);
    expect(check(['/acme/News/Clip'], '/other/Sport')).toEqual([]);
    expect(check(['/acme'], '/acme/Sport')).toEqual([]);
    expect(check(['/acme/News'], '/acme/News/Today')).toEqual([]);
    expect(check(['/acme/News'], '/acme/News')).toEqual([]);
  });

  it('needs edit rights where the sources are to move, and at the destination for both', () => {
    expect(
      check(['/acme/News/Clip'], '/acme/Sport', { srcRights: [{ atParent: readOnly, atNode: full }] }),
    ).toEqual(['copy']);
    expect(check(['/acme/News/Clip'], '/acme/Sport', { dstRights: readOnly })).toEqual([]);
  });

  it('reads as the past tense in the success message', () => {
    expect(NODE_MESSAGES.transferred('/acme/News/Clip', transferVerb('move'), '/acme/Sport')).toBe(
      'Node /acme/News/Clip is moved to /acme/Sport successfully!',
    );
  });
});

describe('free names', () => {
  it("adds ' (copy)' and then a number until the name is free", () => {
    expect(freeName('Clip', new Set())).toBe('Clip');
    expect(freeName('Clip', new Set(['clip']))).toBe('Clip (copy)');
    expect(freeName('Clip', new Set(['clip', 'clip (copy)', 'clip (copy 2)']))).toBe('Clip (copy 3)');
  });

  it('always answers a name that is not taken', () => {
    fc.assert(
      fc.property(segment, fc.array(segment), (name, taken) => {
        const set = new Set(taken.map((entry) => entry.toLowerCase()));
        expect(set.has(freeName(name, set).toLowerCase())).toBe(false);
      }),
    );
  });
});

describe('clip thumb point (spec3 §3)', () => {
  it('is (imageFrame - inFrame) / fps seconds', () => {
    expect(clipThumbPoint({ imageFrame: 75, inFrame: 25, fps: 25 })).toBe(2);
  });
});

describe('node schemas', () => {
  it('read repeated JSON search clauses and the default displayed types', () => {
    const query = nodesQuerySchema.parse({
      path: '/acme',
      search: ['{"key":"name","value":"goal"}', '{"key":"text","value":"final","match":"exact"}'],
    });
    expect(query.search).toEqual([
      { key: 'name', value: 'goal', match: 'contains' },
      { key: 'text', value: 'final', match: 'exact' },
    ]);
    expect(query.type).toEqual(['source', 'folder', 'sequence']);
    expect(query.childOrder).toBe('time');
    expect(query.limit).toBe(100);
  });

  it('refuse a bad clause, a limit over 100 and an unknown type', () => {
    expect(nodesQuerySchema.safeParse({ path: '/acme', search: 'nope' }).success).toBe(false);
    expect(nodesQuerySchema.safeParse({ path: '/acme', limit: '101' }).success).toBe(false);
    expect(nodesQuerySchema.safeParse({ path: '/acme', type: 'folder,video' }).success).toBe(false);
  });

  it('tell the POST /api/nodes variants apart and refuse unknown fields', () => {
    expect(nodePostSchema.safeParse({ parentPath: '/acme', type: 'folder', name: 'News' }).success).toBe(
      true,
    );
    expect(
      nodePostSchema.safeParse({ key: 'location', value: 'Oslo', accountId: 1, path: '/acme/a' }).success,
    ).toBe(true);
    expect(
      nodePostSchema.safeParse({ path: '/acme/a', permissions: [{ roleId: 1, access: 'none' }] }).success,
    ).toBe(true);
    expect(nodePostSchema.safeParse({ path: '/acme/a', name: 'b' }).success).toBe(true);
    expect(nodePostSchema.safeParse({ parentPath: '/acme', type: 'folder', name: 'a/b' }).success).toBe(
      false,
    );
    expect(
      nodePostSchema.safeParse({ parentPath: '/acme', type: 'folder', name: 'x', extra: 1 }).success,
    ).toBe(false);
    expect(
      nodePostSchema.safeParse({
        path: '/acme/a',
        permissions: [
          { roleId: 1, access: 'none' },
          { roleId: 1, access: 'view' },
        ],
      }).success,
    ).toBe(false);
  });

  it('accept one source path or several in a transfer', () => {
    expect(nodesTransferSchema.safeParse({ srcPath: '/a/b', dstPath: '/a', operation: 'copy' }).success).toBe(
      true,
    );
    expect(
      nodesTransferSchema.safeParse({ srcPath: ['/a/b', '/a/c'], dstPath: '/a', operation: 'move' }).success,
    ).toBe(true);
    expect(
      nodesTransferSchema.safeParse({ srcPath: '/a/b', dstPath: '/a', operation: 'delete' }).success,
    ).toBe(false);
  });
});

describe('media manager link', () => {
  it('opens an account, optionally at a path and as a role', () => {
    expect(mediaManagerLink('acme')).toBe('/accounts/acme/media');
    expect(mediaManagerLink('a b', { roleId: 4 })).toBe('/accounts/a%20b/media?role=4');
    expect(mediaManagerLink('acme', { path: '/acme/News' })).toBe('/accounts/acme/media?path=%2Facme%2FNews');
  });
});

describe('node types shown', () => {
  it('show clips among sequences and media among sources by default', () => {
    expect(nodeTypesShown(['source', 'folder', 'sequence'])).toEqual([
      'folder',
      'source',
      'sequence',
      'media',
      'edl',
    ]);
    expect(nodeTypesShown(['folder'])).toEqual(['folder']);
    expect(nodeTypesShown(['edl'])).toEqual(['edl']);
  });
});

describe('search key', () => {
  const clause = { key: 'location', value: 'Harbour', match: 'contains' as const };
  it('is null outside a search and the same for the same search', () => {
    expect(searchKeyOf({ search: [] })).toBeNull();
    expect(searchKeyOf({ search: [], createdFrom: '2026-01-01' })).toBeNull();
    expect(searchKeyOf({ search: [clause] })).toBe(searchKeyOf({ search: [{ ...clause }] }));
  });
  it('tells searches apart by clause, match and dates', () => {
    const keys = [
      searchKeyOf({ search: [clause] }),
      searchKeyOf({ search: [{ ...clause, match: 'exact' }] }),
      searchKeyOf({ search: [{ ...clause, value: 'Station' }] }),
      searchKeyOf({ search: [clause], createdFrom: '2026-01-01' }),
      searchKeyOf({ search: [clause], createdTo: '2026-01-01' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('accumulated metadata (spec3 §9 default accumulate keys)', () => {
  it('gathers only the accumulate keys, each distinct value once, in source order', () => {
    expect(
      accumulatedMetadata([
        { location: 'Harbour', reporter: 'Jo', filename: 'a.mp4' },
        { location: 'Station', filename: 'b.mp4' },
        { location: 'Harbour', clipname: ' ' },
      ]),
    ).toEqual({ location: 'Harbour, Station', filename: 'a.mp4, b.mp4' });
  });
  it("counts a gathered list's values one by one and gives nothing from nothing", () => {
    expect(accumulatedMetadata([{ videoname: 'A, B' }, { videoname: 'B' }, { videoname: 'C' }])).toEqual({
      videoname: 'A, B, C',
    });
    expect(accumulatedMetadata([])).toEqual({});
    expect(accumulatedMetadata([{ reporter: 'Jo' }])).toEqual({});
  });
});
