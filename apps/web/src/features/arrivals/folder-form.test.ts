import { ARRIVALS_MESSAGES, arrivalsFolderType, CREATE_NEW_FOLDER_ID } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { arrivalsFolderChoices } from '../../api/arrivals.ts';
import { defaultOptions, folderFormErrors, optionsOfType } from './folder-form.ts';

const archive = arrivalsFolderType('archive');
const standard = arrivalsFolderType('standard');

describe('the arrivals folder form', () => {
  it("starts a type's options at their defaults, in the kind of value each control holds", () => {
    expect(defaultOptions(archive)).toEqual({ retentionDays: 3650, storageClass: 'standard' });
    expect(defaultOptions(standard)).toMatchObject({ makeProxies: true, targetFolder: 'Arrivals' });
    expect(defaultOptions(undefined)).toEqual({});
  });

  it('asks for a name, a type and every required option', () => {
    const form = { typeId: 'archive', priority: 0, options: { retentionDays: '', storageClass: 'glacier' } };
    expect(folderFormErrors(form, archive, ' ')).toEqual({
      name: ARRIVALS_MESSAGES.required,
      retentionDays: ARRIVALS_MESSAGES.required,
    });
    expect(folderFormErrors({ typeId: '', priority: 0, options: {} }, undefined, 'Rushes')).toEqual({
      typeId: ARRIVALS_MESSAGES.required,
    });
  });

  it('sends only the options the type defines, leaving out empty ones', () => {
    const form = {
      typeId: 'archive',
      priority: 0,
      options: { retentionDays: 30, storageClass: '', targetFolder: 'left over from another type' },
    };
    expect(optionsOfType(form, archive)).toEqual({ retentionDays: 30 });
  });
});

describe('the choices where an arrivals folder is chosen', () => {
  it('lists the folders, with Unassigned first and Create New Folder last when asked', () => {
    expect(arrivalsFolderChoices([{ id: 4, name: 'Rushes' }], { unassigned: true, createNew: true })).toEqual(
      [
        { value: '', label: ARRIVALS_MESSAGES.unassigned },
        { value: '4', label: 'Rushes' },
        { value: CREATE_NEW_FOLDER_ID, label: ARRIVALS_MESSAGES.createNewFolder },
      ],
    );
  });

  it("offers only '** An account manager must set **' when the folders are forbidden (403)", () => {
    expect(arrivalsFolderChoices('forbidden', { unassigned: true, createNew: true })).toEqual([
      { value: '', label: '** An account manager must set **', disabled: true },
    ]);
  });
});
