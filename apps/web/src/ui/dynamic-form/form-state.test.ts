import { validateForm } from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  centredPopupFeatures,
  formValuesOf,
  isFormDirty,
  shownMessages,
  withFieldValidation,
} from './form-state.ts';

describe('dynamic form state', () => {
  it('is dirty while a value differs from the pristine snapshot, and clean when changed back', () => {
    expect(isFormDirty({ a: 'x', tags: ['t'] }, { a: 'x', tags: ['t'] })).toBe(false);
    expect(isFormDirty({ a: 'y' }, { a: 'x' })).toBe(true);
    expect(isFormDirty({ a: 'x', b: null }, { a: 'x' })).toBe(false);
    expect(isFormDirty({ tags: ['t', 'u'] }, { tags: ['t'] })).toBe(true);
  });

  it('shows the required error (This field cannot be empty) only once the field was touched', () => {
    const schema = [{ name: 'title', type: 'text', required: true }];
    const result = validateForm(schema, { title: '' });
    expect(shownMessages(result, 'title', false)).toEqual([]);
    expect(shownMessages(result, 'title', true)).toEqual(['This field cannot be empty']);
  });

  it('updates one field at once, leaving the others to the debounced full validation', () => {
    const schema = [
      { name: 'a', type: 'text', maxLength: 2 },
      { name: 'b', type: 'text', maxLength: 2 },
    ];
    const before = validateForm(schema, { a: '', b: '' });
    const full = validateForm(schema, { a: 'long', b: 'long' });
    const shown = withFieldValidation(before, 'a', full);
    expect(shown.errors).toEqual({ a: ['Character limit exceeded'] });
  });

  it('centres the open-url popup on the screen', () => {
    expect(centredPopupFeatures({ width: 1920, height: 1080 }, 800, 600)).toBe(
      'popup=yes,width=800,height=600,left=560,top=240',
    );
    expect(centredPopupFeatures({ width: 1000, height: 500, left: 1920, top: 0 }, 800, 600)).toBe(
      'popup=yes,width=800,height=500,left=2020,top=0',
    );
  });

  it('keeps only form values from a set-options answer', () => {
    expect(formValuesOf({ a: 'x', n: 1, b: true, l: ['t'], o: { deep: 1 }, z: null })).toEqual({
      a: 'x',
      n: 1,
      b: true,
      l: ['t'],
      z: null,
    });
  });
});
