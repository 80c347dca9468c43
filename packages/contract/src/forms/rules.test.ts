import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHARACTER_COUNTER_THRESHOLD,
  characterCounter,
  FORM_MESSAGES,
  isFieldEnabled,
  isFieldRequired,
  selectOptions,
  validateField,
  validateForm,
} from './rules.ts';
import type { FormSchemaItem, FormValue } from './schema.ts';

const text = (extra: Partial<FormSchemaItem> = {}): FormSchemaItem => ({
  name: 'field',
  type: 'text',
  ...extra,
});

describe('dynamic form messages (spec3 §5)', () => {
  it('gives the spec wording, word for word', () => {
    expect(FORM_MESSAGES.invalidEmail).toBe('Please enter a valid email address');
    expect(FORM_MESSAGES.empty).toBe('This field cannot be empty');
    expect(FORM_MESSAGES.required).toBe('This field is required');
    expect(FORM_MESSAGES.minLength(5)).toBe('Please enter at least 5 characters');
    expect(FORM_MESSAGES.characterLimit).toBe('Character limit exceeded');
    expect(FORM_MESSAGES.invalidValue).toBe('Invalid Value');
    expect(FORM_MESSAGES.regex('^a+$')).toBe("Invalid value (should match '^a+$')");
    expect(FORM_MESSAGES.selectPlaceholder).toBe('--- Select an option ---');
    expect(FORM_MESSAGES.deprecatedOption('old')).toBe('old (deprecated option)');
  });

  it('checks an email address', () => {
    const email = text({ type: 'emailAddress' });
    expect(validateField(email, 'someone@example.com', {})).toEqual([]);
    expect(validateField(email, 'someone@', {})).toEqual(['Please enter a valid email address']);
  });

  it('checks the minimum and maximum length', () => {
    expect(validateField(text({ minLength: 3 }), 'ab', {})).toEqual(['Please enter at least 3 characters']);
    expect(validateField(text({ maxLength: 3 }), 'abcd', {})).toEqual(['Character limit exceeded']);
    expect(validateField(text({ maxLength: 3, minLength: 1 }), 'abc', {})).toEqual([]);
    expect(validateField(text({ maxLength: 10, customLength: 2 }), 'abc', {})).toEqual([
      'Character limit exceeded',
    ]);
  });

  it('gives Invalid Value when a number breaks minimum, maximum, wholeness or evenness', () => {
    const number = text({ type: 'integer', minValue: 2, maxValue: 10, evenNumber: true });
    expect(validateField(number, 4, {})).toEqual([]);
    expect(validateField(number, 1, {})).toEqual(['Invalid Value']);
    expect(validateField(number, 12, {})).toEqual(['Invalid Value']);
    expect(validateField(number, 5, {})).toEqual(['Invalid Value']);
    expect(validateField(number, 4.5, {})).toEqual(['Invalid Value']);
    expect(validateField(number, 'abc', {})).toEqual(['Invalid Value']);
    expect(validateField(text({ type: 'number', maxValue: 1 }), '0.5', {})).toEqual([]);
    expect(validateField(text({ type: 'fractionOrInteger' }), '30000/1001', {})).toEqual([]);
    expect(validateField(text({ type: 'fractionOrInteger' }), '29.97', {})).toEqual(['Invalid Value']);
  });

  it('fails a regex rule when the match result differs from shouldMatch', () => {
    const mustMatch = text({ regexValidator: { regex: '^[a-z]+$', shouldMatch: true } });
    expect(validateField(mustMatch, 'abc', {})).toEqual([]);
    expect(validateField(mustMatch, 'ab1', {})).toEqual(["Invalid value (should match '^[a-z]+$')"]);
    const mustNot = text({ regexValidator: { regex: '\\s', shouldMatch: false, message: 'No spaces' } });
    expect(validateField(mustNot, 'a b', {})).toEqual(['No spaces']);
    expect(validateField(mustNot, 'ab', {})).toEqual([]);
  });

  it('collects every failure, custom validators (with the other values) and the server message together', () => {
    const item = text({
      minLength: 5,
      regexValidator: { regex: '^\\d+$', shouldMatch: true },
      customValidator: 'odd',
    });
    const odd = (value: FormValue, values: Record<string, FormValue>) =>
      value === values.other ? 'Must differ from other' : null;
    expect(
      validateField(
        item,
        'ab',
        { other: 'ab' },
        { customValidators: { odd }, serverError: 'Taken on the server' },
      ),
    ).toEqual([
      'Please enter at least 5 characters',
      "Invalid value (should match '^\\d+$')",
      'Must differ from other',
      'Taken on the server',
    ]);
  });

  it('lets empty values pass every rule; a required error is not listed among the messages', () => {
    const item = text({
      type: 'emailAddress',
      required: true,
      minLength: 3,
      regexValidator: { regex: 'x', shouldMatch: true },
    });
    expect(validateField(item, '', {})).toEqual([]);
    const result = validateForm([item], { field: '' });
    expect(result).toMatchObject({ valid: false, errors: {}, required: { field: true } });
  });

  it('property: an empty value never gets a message', () => {
    const items = fc.record({
      type: fc.constantFrom(
        'text',
        'textarea',
        'emailAddress',
        'integer',
        'number',
        'fractionOrInteger',
        'select',
      ),
      minLength: fc.option(fc.nat(20), { nil: undefined }),
      maxLength: fc.option(fc.nat(20), { nil: undefined }),
      minValue: fc.option(fc.integer(), { nil: undefined }),
      required: fc.boolean(),
    });
    fc.assert(
      fc.property(items, fc.constantFrom<FormValue>('', null, [], '   '), (item, value) => {
        expect(validateField({ name: 'f', ...item }, value, {})).toEqual([]);
      }),
    );
  });

  it('makes a field conditionally required through requiredIf', () => {
    const item = text({ requiredIf: ['mode', 'equal', 'custom'] });
    expect(isFieldRequired(item, { mode: 'custom' })).toBe(true);
    expect(isFieldRequired(item, { mode: 'auto' })).toBe(false);
    const unless = text({ requiredIf: ['mode', 'notequal', 'auto'] });
    expect(isFieldRequired(unless, { mode: 'custom' })).toBe(true);
    expect(isFieldRequired(unless, { mode: 'auto' })).toBe(false);
    expect(
      validateForm([{ name: 'mode', type: 'text' }, item], { mode: 'custom', field: '' }).required,
    ).toEqual({
      field: true,
    });
    expect(validateForm([{ name: 'mode', type: 'text' }, item], { mode: 'auto', field: '' }).valid).toBe(
      true,
    );
  });

  it('marks a server-flagged field invalid with the server message', () => {
    const result = validateForm([text()], { field: 'fine' }, { field: 'Name already in use' });
    expect(result).toMatchObject({ valid: false, errors: { field: ['Name already in use'] } });
  });

  it('does not validate a field hidden by showWhen', () => {
    const schema = [
      { name: 'kind', type: 'text' },
      { name: 'field', type: 'text', required: true, showWhen: "kind == 'ftp'" },
    ];
    expect(validateForm(schema, { kind: 'web', field: '' }).valid).toBe(true);
    expect(validateForm(schema, { kind: 'ftp', field: '' }).valid).toBe(false);
  });

  it('validates the fields of a group', () => {
    const schema = [{ name: 'g', type: 'group', groupFields: [text({ required: true })] }];
    expect(validateForm(schema, { field: '' }).required).toEqual({ field: true });
  });

  it('reads enableWhen, disabled and read-only into whether a field takes input', () => {
    expect(isFieldEnabled(text({ enableWhen: 'on' }), { on: true })).toBe(true);
    expect(isFieldEnabled(text({ enableWhen: 'on' }), { on: false })).toBe(false);
    expect(isFieldEnabled(text({ enableWhen: 'on ==' }), {})).toBe(true);
    expect(isFieldEnabled(text({ disabled: true }), {})).toBe(false);
    expect(isFieldEnabled(text({ readonly: true }), {})).toBe(false);
  });
});

describe('character counter (spec3 §5, §9)', () => {
  it("reads 'n / max' once usage reaches 80% of maxLength", () => {
    expect(characterCounter('abc', 5)).toBeNull();
    expect(characterCounter('abcd', 5)).toBe('4 / 5');
    expect(characterCounter('abcdef', 5)).toBe('6 / 5');
    expect(characterCounter('abcdef', undefined)).toBeNull();
  });

  it('property: shown exactly from 80% of the limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 60 }), (value, max) => {
        const counter = characterCounter(value, max);
        if (value.length >= max * CHARACTER_COUNTER_THRESHOLD)
          expect(counter).toBe(`${value.length} / ${max}`);
        else expect(counter).toBeNull();
      }),
    );
  });
});

describe('select options (spec3 §5)', () => {
  it('labels options and shows a current value not among them as deprecated', () => {
    const item = text({ type: 'select', allowedValues: ['mp4', 'mov'], valueLabels: { mp4: 'MPEG-4' } });
    expect(selectOptions(item, 'avi')).toEqual([
      { value: 'mp4', label: 'MPEG-4' },
      { value: 'mov', label: 'mov' },
      { value: 'avi', label: 'avi (deprecated option)', deprecated: true },
    ]);
    expect(selectOptions(item, 'mp4')).toHaveLength(2);
    expect(selectOptions(item, '')).toHaveLength(2);
  });

  it('makes a select with an empty option not required', () => {
    const item = text({ type: 'select', required: true, allowedValues: ['', 'a'] });
    expect(isFieldRequired(item, {})).toBe(false);
    expect(validateForm([item], { field: '' }).valid).toBe(true);
    expect(isFieldRequired({ ...item, allowedValues: ['a'] }, {})).toBe(true);
  });
});
