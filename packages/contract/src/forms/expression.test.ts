import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateExpression, evaluateShowWhen, expressionTruthy } from './expression.ts';

describe('showWhen (spec3 §5)', () => {
  it('references other fields by name', () => {
    expect(evaluateShowWhen("mode == 'ftp'", { mode: 'ftp' })).toBe(true);
    expect(evaluateShowWhen("mode == 'ftp'", { mode: 'web' })).toBe(false);
    expect(evaluateShowWhen("mode != 'ftp'", { mode: 'web' })).toBe(true);
    expect(evaluateShowWhen('mode === "ftp" || port > 20', { mode: 'web', port: 21 })).toBe(true);
    expect(evaluateShowWhen('(a || b) && !c', { a: '', b: 'x', c: false })).toBe(true);
    expect(evaluateShowWhen('(a || b) && !c', { a: '', b: 'x', c: true })).toBe(false);
    expect(evaluateShowWhen('model.enabled', { enabled: true })).toBe(true);
    expect(evaluateShowWhen('count >= 2', { count: '3' })).toBe(true);
    expect(evaluateShowWhen('level == -1', { level: -1 })).toBe(true);
  });

  it("hides the field on the results 'false', null, empty and false", () => {
    expect(evaluateShowWhen('false', {})).toBe(false);
    expect(evaluateShowWhen("'false'", {})).toBe(false);
    expect(evaluateShowWhen('null', {})).toBe(false);
    expect(evaluateShowWhen("''", {})).toBe(false);
    expect(evaluateShowWhen('value', { value: 'false' })).toBe(false);
    expect(evaluateShowWhen('value', { value: null })).toBe(false);
    expect(evaluateShowWhen('value', { value: '' })).toBe(false);
    expect(evaluateShowWhen('value', { value: 'yes' })).toBe(true);
    expect(evaluateShowWhen('true', {})).toBe(true);
    expect(evaluateShowWhen('0', {})).toBe(true);
  });

  it('leaves the field shown for a malformed expression or none', () => {
    for (const malformed of ["mode == 'ftp", 'a &&', '(a', 'a b', '== 1', 'a ? b : c', 'alert(1)', '#'])
      expect(evaluateShowWhen(malformed, { a: false, mode: 'x' })).toBe(true);
    expect(evaluateShowWhen(undefined, {})).toBe(true);
    expect(evaluateShowWhen('  ', {})).toBe(true);
  });

  it('never runs code: a call is malformed, not executed', () => {
    expect(evaluateExpression('constructor.constructor("return 1")()', {})).toMatchObject({ ok: false });
  });

  it('property: any text evaluates to a boolean without throwing', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.boolean())),
        (text, values) => {
          expect(typeof evaluateShowWhen(text, values)).toBe('boolean');
        },
      ),
    );
  });

  it('property: ! negates and == compares values as text', () => {
    const value = fc.oneof(fc.string({ maxLength: 5 }), fc.boolean(), fc.integer(), fc.constant(null));
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(evaluateShowWhen('!a', { a })).toBe(!expressionTruthy(a));
        const equal = a === null || b === null ? a === b : String(a) === String(b);
        expect(evaluateExpression('a == b', { a, b })).toEqual({ ok: true, value: equal });
        expect(evaluateExpression('a != b', { a, b })).toEqual({ ok: true, value: !equal });
      }),
    );
  });
});
