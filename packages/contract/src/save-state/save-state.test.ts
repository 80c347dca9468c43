import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDirty, isSaving, SAVE_STATES, stateWhileSaving } from './save-state.ts';

describe('per-object save state (spec1 §4)', () => {
  it('goes new → creating and clean → saving', () => {
    expect(stateWhileSaving('new')).toBe('creating');
    expect(stateWhileSaving('clean')).toBe('saving');
    expect(stateWhileSaving('saving')).toBe('saving');
    expect(stateWhileSaving('creating')).toBe('creating');
  });

  it('is saving in exactly the in-progress states', () => {
    expect(SAVE_STATES.filter(isSaving)).toEqual(['creating', 'saving']);
  });

  it('sees a change of value as dirty, and key order as no change', () => {
    expect(isDirty({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(false);
    expect(isDirty({ a: 1 }, { a: 2 })).toBe(true);
    expect(isDirty({ a: [1, 2] }, { a: [2, 1] })).toBe(true);
  });

  it('never finds a value dirty against a copy of itself', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => !isDirty(value, structuredClone(value))));
  });

  it('always enters an in-progress state when a save starts from a resting state', () => {
    fc.assert(
      fc.property(fc.constantFrom('new', 'clean', 'error', 'uninitialised' as const), (state) =>
        isSaving(stateWhileSaving(state)),
      ),
    );
  });
});
