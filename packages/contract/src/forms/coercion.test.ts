import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coerceValue, initialValues } from './coercion.ts';
import { inputKindOf, inputKindOrError, UnimplementedFieldError } from './field-kinds.ts';
import { FORM_FIELD_TYPES, type FormSchemaItem } from './schema.ts';

const item = (type: string, extra: Partial<FormSchemaItem> = {}): FormSchemaItem => ({
  name: 'f',
  type,
  ...extra,
});

describe('value coercion (spec3 §5)', () => {
  it('falls back to the default outside allowedValues', () => {
    const select = item('select', { allowedValues: ['a', 'b'], defaultValue: 'b' });
    expect(coerceValue(select, 'a')).toBe('a');
    expect(coerceValue(select, 'z')).toBe('b');
    expect(coerceValue(item('select', { allowedValues: [1, 2] }), '2')).toBe(2);
    expect(coerceValue(item('integer', { allowedValues: [5, 10], defaultValue: 5 }), '7')).toBe(5);
  });

  it('parses integers as whole numbers and numbers as decimals; a non-number gives the default', () => {
    expect(coerceValue(item('integer'), '12.7')).toBe(12);
    expect(coerceValue(item('integer'), 12.7)).toBe(12);
    expect(coerceValue(item('number'), '12.7')).toBe(12.7);
    expect(coerceValue(item('number'), 'abc')).toBe(0);
    expect(coerceValue(item('integer', { defaultValue: 5000 }), 'abc')).toBe(5000);
  });

  it('rounds evenNumber down to even and clamps to minValue and maxValue', () => {
    expect(coerceValue(item('integer', { evenNumber: true }), 7)).toBe(6);
    expect(coerceValue(item('integer', { minValue: 10, maxValue: 20 }), 3)).toBe(10);
    expect(coerceValue(item('integer', { minValue: 10, maxValue: 20 }), 300)).toBe(20);
    expect(coerceValue(item('integer', { minValue: 3, maxValue: 9, evenNumber: true }), 3)).toBe(4);
  });

  it('makes text a string and boolean true or false', () => {
    expect(coerceValue(item('text'), 42)).toBe('42');
    expect(coerceValue(item('textarea'), true)).toBe('true');
    expect(coerceValue(item('boolean'), 'true')).toBe(true);
    expect(coerceValue(item('boolean'), 'false')).toBe(false);
    expect(coerceValue(item('checkbox'), 1)).toBe(true);
  });

  it('defaults to empty for text kinds, 0 for numeric kinds, false for boolean', () => {
    expect(coerceValue(item('text'), undefined)).toBe('');
    expect(coerceValue(item('emailAddress'), null)).toBe('');
    expect(coerceValue(item('fractionOrInteger'), undefined)).toBe(0);
    expect(coerceValue(item('fractionOrInteger'), '30000/1001')).toBe('30000/1001');
    expect(coerceValue(item('integer'), undefined)).toBe(0);
    expect(coerceValue(item('number'), null)).toBe(0);
    expect(coerceValue(item('boolean'), undefined)).toBe(false);
    expect(coerceValue(item('text', { defaultValue: 'hello' }), undefined)).toBe('hello');
  });

  it('builds initial values for every field, groups included, keeping other keys', () => {
    const schema: FormSchemaItem[] = [
      item('text', { name: 'title' }),
      item('integer', { name: 'rate', defaultValue: 5000 }),
      item('group', { name: 'more', groupFields: [item('boolean', { name: 'notify' })] }),
      item('button', { name: 'test', action: 'test' }),
    ];
    expect(initialValues(schema, { title: 'x', extra: 'kept' })).toEqual({
      title: 'x',
      rate: 5000,
      notify: false,
      extra: 'kept',
    });
  });

  it('property: integers come out whole, clamped and even when asked', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ noNaN: true }), fc.string(), fc.integer()),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 2, max: 1000 }),
        fc.boolean(),
        (raw, min, span, evenNumber) => {
          const field = item('integer', { minValue: min, maxValue: min + span, evenNumber });
          const value = coerceValue(field, raw);
          expect(typeof value).toBe('number');
          expect(Number.isInteger(value)).toBe(true);
          expect(value as number).toBeGreaterThanOrEqual(min);
          expect(value as number).toBeLessThanOrEqual(min + span);
          if (evenNumber) expect(Math.abs((value as number) % 2)).toBe(0);
        },
      ),
    );
  });

  it('property: text kinds always give a string and boolean kinds a boolean', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), (raw) => {
        expect(typeof coerceValue(item('text'), raw)).toBe('string');
        expect(typeof coerceValue(item('toggle'), raw)).toBe('boolean');
      }),
    );
  });
});

describe('field type mapping (spec3 §5)', () => {
  it('maps the spec types to their inputs', () => {
    expect(inputKindOf(item('text'))).toBe('text');
    expect(inputKindOf(item('fractionOrInteger'))).toBe('text');
    expect(inputKindOf(item('textarea'))).toBe('textarea');
    expect(inputKindOf(item('url'))).toBe('url');
    expect(inputKindOf(item('number'))).toBe('number');
    expect(inputKindOf(item('integer'))).toBe('number');
    expect(inputKindOf(item('boolean'))).toBe('checkbox');
    expect(inputKindOf(item('text', { allowedValues: ['a'] }))).toBe('select');
    expect(inputKindOf(item('integer', { allowedValues: [1, 2] }))).toBe('select');
    expect(inputKindOf(item('radio', { allowedValues: ['a'] }))).toBe('radio');
    expect(inputKindOf(item('multiple'))).toBe('tags');
    expect(inputKindOf(item('multiple', { allowedValues: ['a'] }))).toBe('multiple');
  });

  it('shows emailAddress as a text input of the email kind', () => {
    expect(inputKindOf(item('emailAddress'))).toBe('email');
  });

  it("reports an unknown type as '{type} has not been implemented'", () => {
    expect(() => inputKindOf(item('slider'))).toThrow(new UnimplementedFieldError('slider'));
    expect(() => inputKindOf(item('slider'))).toThrow('slider has not been implemented');
    expect(inputKindOrError(item('slider'))).toEqual({ error: 'slider has not been implemented' });
  });

  it('maps every listed type', () => {
    for (const type of FORM_FIELD_TYPES) expect(inputKindOrError(item(type))).toHaveProperty('kind');
  });
});
