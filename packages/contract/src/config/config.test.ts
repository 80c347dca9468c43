import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  columnsInheritLabel,
  columnsProblem,
  formatPresets,
  newColumn,
  parsePresets,
} from '../columns/defaults.ts';
import {
  checkNewExtraDataKey,
  clashingExtraDataKeys,
  EXTRA_DATA_KEY_PREFIX,
  extraDataAddToggleText,
  extraDataKeyOf,
  extraDataStoredKey,
  extraDataUpdateSchema,
  MSG_EXTRA_DATA_KEY_CLASH,
  MSG_NO_UPLOAD_FORMAT_OPTION,
} from './extra-data.ts';
import {
  ASPECTS,
  FRAME_RATE_STANDARD_ORDER,
  FRAME_RATE_STANDARDS,
  type IngestFormat,
  ingestFormatsProblem,
  NEW_INGEST_FORMAT,
  offeredResolutions,
  packIngestFormat,
  resolutionsFor,
  unpackIngestFormat,
} from './ingest-formats.ts';
import {
  defaultKeyShortcutLevel,
  keyShortcutAffectedLevels,
  keyShortcutDescendants,
  keyShortcutParentChoices,
} from './key-shortcuts.ts';
import { keyboardExpansionXml, keyMapNameProblem } from './keyboard-expansions.ts';

const ingestFormat = fc
  .record({
    standard: fc.constantFrom(...FRAME_RATE_STANDARD_ORDER),
    aspect: fc.constantFrom(...(Object.keys(ASPECTS) as (keyof typeof ASPECTS)[])),
  })
  .chain(({ standard, aspect }) =>
    fc
      .constantFrom(...resolutionsFor(aspect))
      .map((resolution): IngestFormat => ({ standard, aspect, resolution })),
  );

describe('ingest format codec (spec1 §3, §5)', () => {
  it('packs standard_aspect and adds the resolution only when it is not standard', () => {
    expect(packIngestFormat(NEW_INGEST_FORMAT)).toBe('PAL_wide');
    expect(packIngestFormat({ standard: '29.97', aspect: 'normal', resolution: '720' })).toBe(
      '29.97_normal_720',
    );
    expect(packIngestFormat({ standard: 'FILM', aspect: 'tall', resolution: '640' })).toBe('FILM_tall_640');
  });

  it('unpacks what it packs, exactly', () => {
    fc.assert(
      fc.property(ingestFormat, (format) => {
        expect(unpackIngestFormat(packIngestFormat(format))).toEqual({ format, exact: true });
      }),
    );
  });

  it('tolerates a trailing x or p on the resolution', () => {
    expect(unpackIngestFormat('NTSC_wide_1080p')).toEqual({
      format: { standard: 'NTSC', aspect: 'wide', resolution: '1080' },
      exact: true,
    });
    expect(unpackIngestFormat('50_wide_720x').format.resolution).toBe('720');
  });

  it('falls back to the defaults of a new row for unknown parts, and says so', () => {
    expect(unpackIngestFormat('SECAM_cinema_4k')).toEqual({ format: NEW_INGEST_FORMAT, exact: false });
    expect(unpackIngestFormat('PAL_tall_1080')).toEqual({
      format: { standard: 'PAL', aspect: 'tall', resolution: 'standard' },
      exact: false,
    });
    fc.assert(
      fc.property(fc.string(), (text) => {
        const { format } = unpackIngestFormat(text);
        expect(Object.hasOwn(FRAME_RATE_STANDARDS, format.standard)).toBe(true);
        expect(resolutionsFor(format.aspect)).toContain(format.resolution);
      }),
    );
  });

  it('offers resolutions up to the max ingest resolution (640 by default), standard always', () => {
    expect(offeredResolutions('wide')).toEqual(['standard', '360', '540']);
    expect(offeredResolutions('wide', 1080)).toEqual(['standard', '360', '540', '720', '1080']);
    expect(offeredResolutions('tall')).toEqual(['standard', '640']);
    expect(offeredResolutions('tall', 360)).toEqual(['standard']);
  });

  it('finds unknown and repeated entries in a list', () => {
    expect(ingestFormatsProblem(['PAL_wide', 'NTSC_normal_720'])).toBeUndefined();
    expect(ingestFormatsProblem(['PAL_wide', 'bogus'])).toBe('Unknown ingest format: bogus');
    expect(ingestFormatsProblem(['PAL_wide_720', 'PAL_wide_720p'])).toBe(
      'Ingest format repeated: PAL_wide_720',
    );
  });
});

describe('extra data keys (spec1 §5)', () => {
  it('stores data keys with the prefix and reads them back trimmed', () => {
    expect(extraDataStoredKey(' colour ')).toBe(`${EXTRA_DATA_KEY_PREFIX}colour`);
    expect(extraDataKeyOf(extraDataStoredKey('colour'))).toBe('colour');
    expect(extraDataKeyOf('some_option')).toBeUndefined();
  });

  it('names the add toggle a, then another, pair', () => {
    expect(extraDataAddToggleText(false)).toBe('Add a key/value pair');
    expect(extraDataAddToggleText(true)).toBe('Add another key/value pair');
  });

  it('refuses an empty key, a clash, and the upload format option on account pages only', () => {
    expect(checkNewExtraDataKey('  ', [], 'sites')?.message).toBe('This field is required');
    expect(checkNewExtraDataKey('colour ', ['colour'], 'users')).toEqual({
      code: 'keyclash',
      message: MSG_EXTRA_DATA_KEY_CLASH,
    });
    expect(checkNewExtraDataKey('Upload_Format', [], 'accounts')).toEqual({
      code: 'noUploadFormatOption',
      message: MSG_NO_UPLOAD_FORMAT_OPTION,
    });
    expect(checkNewExtraDataKey('upload_format', [], 'sites')).toBeUndefined();
  });

  it('trims values of an update, keeps null as a deletion, and leaves the keys to the clash check', () => {
    expect(extraDataUpdateSchema.parse({ ' extra_a ': ' one ', extra_b: null })).toEqual({
      ' extra_a ': 'one',
      extra_b: null,
    });
    expect(clashingExtraDataKeys(['extra_a', ' extra_a ', 'extra_b'])).toEqual([' extra_a ']);
    expect(clashingExtraDataKeys(['extra_a', 'extra_b'])).toEqual([]);
    expect(extraDataUpdateSchema.safeParse({ extra_a: '   ' }).success).toBe(false);
    expect(extraDataUpdateSchema.safeParse({ '  ': 'x' }).success).toBe(false);
    expect(extraDataUpdateSchema.safeParse({}).success).toBe(false);
  });
});

describe('key shortcut sets (spec1 §5, §6)', () => {
  const sets = [
    { id: 1, parentId: null },
    { id: 2, parentId: 1 },
    { id: 3, parentId: 2 },
    { id: 4, parentId: null },
    { id: 5, parentId: 4 },
  ];

  it('excludes the set itself and all its children from its parent choices', () => {
    expect(keyShortcutParentChoices(sets, 1).map((s) => s.id)).toEqual([4, 5]);
    expect(keyShortcutParentChoices(sets, 3).map((s) => s.id)).toEqual([1, 2, 4, 5]);
    expect([...keyShortcutDescendants(sets, 1)].sort()).toEqual([2, 3]);
  });

  it('never offers a parent that would make a loop', () => {
    const forest = fc.array(fc.nat(20), { minLength: 1, maxLength: 20 }).map((parents) =>
      // Each set's parent is an earlier set or none, so the input itself has no loop.
      parents.map((p, i) => ({ id: i + 1, parentId: i === 0 || p % (i + 1) === 0 ? null : (p % i) + 1 })),
    );
    fc.assert(
      fc.property(forest, fc.nat(19), (all, pick) => {
        const id = (pick % all.length) + 1;
        for (const choice of keyShortcutParentChoices(all, id)) {
          let cursor: number | null = choice.id;
          while (cursor !== null) {
            expect(cursor).not.toBe(id);
            cursor = all.find((s) => s.id === cursor)?.parentId ?? null;
          }
        }
      }),
    );
  });

  it('defaults the level to account, else site, else cloud, and lists the levels a change affects', () => {
    expect(defaultKeyShortcutLevel({ accountId: 1, siteId: 2 })).toBe('account');
    expect(defaultKeyShortcutLevel({ siteId: 2 })).toBe('site');
    expect(defaultKeyShortcutLevel({})).toBe('cloud');
    expect(keyShortcutAffectedLevels('cloud')).toEqual(['user', 'account', 'site']);
    expect(keyShortcutAffectedLevels('account')).toEqual(['user']);
    expect(keyShortcutAffectedLevels('user')).toEqual([]);
  });
});

describe('keyboard expansion maps (spec1 §5)', () => {
  it('requires a new name that the target account does not use yet', () => {
    expect(keyMapNameProblem(' ', [])).toBe('This field cannot be empty');
    expect(keyMapNameProblem('News ', ['news'])).toBe('This name is already in use');
    expect(keyMapNameProblem('Sport', ['news'])).toBeUndefined();
  });

  it('writes the map as XML with its text escaped', () => {
    const xml = keyboardExpansionXml('A & B', [{ abbreviation: '<n>', text: 'news "now"' }]);
    expect(xml).toContain('<keyboardExpansionMap name="A &amp; B">');
    expect(xml).toContain('<expansion abbreviation="&lt;n&gt;">news &quot;now&quot;</expansion>');
  });
});

describe('metadata columns (spec1 §5)', () => {
  const column = (displayName: string, internalName: string) => ({ displayName, internalName });

  it('blocks an empty list or a column without a name as incomplete', () => {
    expect(columnsProblem([])).toBe('Metadata incomplete');
    expect(columnsProblem([column('Reel', ' ')])).toBe('Metadata incomplete');
    expect(columnsProblem([column('', 'reel')])).toBe('Metadata incomplete');
  });

  it('blocks a repeated display or internal name as duplicated', () => {
    expect(columnsProblem([column('Reel', 'reel'), column('reel ', 'reel2')])).toBe('Metadata duplicated');
    expect(columnsProblem([column('Reel', 'reel'), column('Tape', 'REEL')])).toBe('Metadata duplicated');
    expect(columnsProblem([column('Reel', 'reel'), column('Tape', 'tape')])).toBeUndefined();
  });

  it('reads presets from a comma-separated list and writes them back', () => {
    expect(parsePresets(' wide, close-up,, two shot ')).toEqual(['wide', 'close-up', 'two shot']);
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => s.trim() !== '' && !s.includes(','))), (presets) => {
        const trimmed = presets.map((p) => p.trim());
        expect(parsePresets(formatPresets(trimmed))).toEqual(trimmed);
      }),
    );
  });

  it('makes new columns with empty names and every flag off, and names the Default choice', () => {
    expect(newColumn('file')).toEqual({
      displayName: '',
      internalName: '',
      hidden: false,
      searchable: false,
      editable: false,
    });
    expect(newColumn('logging')).toMatchObject({ title: false, media: false, presets: [] });
    expect(columnsInheritLabel('site')).toBe('Default (inherit from cloud)');
    expect(columnsInheritLabel('account')).toBe('Default (inherit from site)');
  });
});
