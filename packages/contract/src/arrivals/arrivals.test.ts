import { describe, expect, it } from 'vitest';
import {
  ARRIVALS_FOLDER_TYPES,
  ARRIVALS_MESSAGES,
  arrivalsAssignmentsBodySchema,
  arrivalsFolderCreateSchema,
  arrivalsFolderType,
  arrivalsFolderUpdateSchema,
} from './arrivals.ts';

describe('arrivals folder types', () => {
  it('have unique ids, and option defaults that fit their kinds and choices', () => {
    const ids = ARRIVALS_FOLDER_TYPES.map((type) => type.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const type of ARRIVALS_FOLDER_TYPES) {
      expect(arrivalsFolderType(type.id)).toBe(type);
      const names = type.options.map((option) => option.name);
      expect(new Set(names).size).toBe(names.length);
      for (const option of type.options) {
        if (option.kind === 'number') expect(Number.isFinite(Number(option.default))).toBe(true);
        if (option.kind === 'boolean') expect(['true', 'false']).toContain(option.default);
        if (option.kind === 'select') expect(option.choices).toContain(option.default);
      }
    }
    expect(arrivalsFolderType('nope')).toBeUndefined();
  });
});

describe('arrivals folder bodies (spec2 §3, §7)', () => {
  it("creates with the default name 'New arrivals folder', trims names and requires one on save", () => {
    expect(arrivalsFolderCreateSchema.parse({}).name).toBe('New arrivals folder');
    expect(arrivalsFolderCreateSchema.parse({ name: '  Rushes ' }).name).toBe('Rushes');
    const empty = arrivalsFolderCreateSchema.safeParse({ name: '  ' });
    expect(empty.error?.issues[0]?.message).toBe(ARRIVALS_MESSAGES.required);
    expect(arrivalsFolderUpdateSchema.safeParse({ id: 1 }).success).toBe(false);
    expect(arrivalsFolderUpdateSchema.safeParse({ id: 1, name: 'A' }).success).toBe(true);
    expect(arrivalsFolderUpdateSchema.safeParse({ id: 1, name: 'A', colour: 'red' }).success).toBe(false);
  });

  it('takes one assignment or a list of them', () => {
    expect(arrivalsAssignmentsBodySchema.safeParse({ endpointId: 1, arrivalsFolderId: 2 }).success).toBe(
      true,
    );
    expect(arrivalsAssignmentsBodySchema.safeParse([{ endpointId: 1, arrivalsFolderId: 2 }]).success).toBe(
      true,
    );
    expect(arrivalsAssignmentsBodySchema.safeParse([]).success).toBe(false);
    expect(arrivalsAssignmentsBodySchema.safeParse({ endpointId: 1 }).success).toBe(false);
  });
});
