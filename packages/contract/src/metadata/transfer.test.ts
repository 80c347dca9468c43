import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_COLUMNS } from '../columns/defaults.ts';
import { idTextSchema } from '../http/input.ts';
import { metadataExportHeader, metadataRowChanges, planMetadataImport, unescapeFormula } from './transfer.ts';

const columns = [
  ...DEFAULT_FILE_COLUMNS,
  { displayName: 'Reel', internalName: 'reel', hidden: false, searchable: true, editable: true },
];

describe('metadata import plan (spec1 §4)', () => {
  it('reads the export header: identity, columns by display or internal name, and the unknown', () => {
    const header = metadataExportHeader(columns);
    expect(header).toEqual([
      'Id',
      'Path',
      'Name',
      'Type',
      'Disk label',
      'Start timecode',
      'End timecode',
      'Source locator',
      'Reel',
    ]);
    const plan = planMetadataImport([' id ', 'PATH', 'reel', '_importdisklab', 'Reel', 'Notes', ''], columns);
    expect(plan.idIndex).toBe(0);
    expect(plan.pathIndex).toBe(1);
    expect(plan.columns.map(({ index, column }) => [index, column.internalName])).toEqual([
      [2, 'reel'],
      [3, '_IMPORTDISKLAB'],
    ]);
    expect(plan.unknownColumns).toEqual(['Notes']);
  });

  it('changes editable columns only; an empty cell removes, a missing cell says nothing', () => {
    const plan = planMetadataImport(['Id', 'Reel', 'Disk label'], columns);
    const current = { reel: 'R1', _IMPORTDISKLAB: 'D1' };
    expect(metadataRowChanges(current, ['1', ' R2 ', 'D2'], plan)).toEqual({
      editable: [{ key: 'reel', change: { column: 'Reel', from: 'R1', to: 'R2' } }],
      readOnly: ['Disk label'],
    });
    expect(metadataRowChanges(current, ['1', ''], plan).editable).toEqual([
      { key: 'reel', change: { column: 'Reel', from: 'R1', to: '' } },
    ]);
    expect(metadataRowChanges(current, ['1'], plan)).toEqual({ editable: [], readOnly: [] });
  });

  it('takes off the quote that guarded a formula', () => {
    expect(unescapeFormula("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(unescapeFormula("'quoted'")).toBe("'quoted'");
  });
});

describe('ids in paths and queries', () => {
  it('takes numbers and digit strings, nothing coerced', () => {
    expect(idTextSchema.parse('12')).toBe(12);
    expect(idTextSchema.parse(12)).toBe(12);
    for (const bad of [true, '', '0', '1.5', '1e3', 'x', null, 2 ** 31])
      expect(idTextSchema.safeParse(bad).success).toBe(false);
  });
});
