import type { FormSchema, FormSchemaItem, FormValue, FormValues } from './schema.ts';

const WHOLE_NUMBER_TYPES = new Set(['integer']);
const DECIMAL_TYPES = new Set(['number']);
const BOOLEAN_TYPES = new Set(['boolean', 'checkbox', 'toggle']);
const LIST_TYPES = new Set(['multiple']);
const VALUELESS_TYPES = new Set(['group', 'button', 'staticText']);
const CHOICE_TYPES = new Set(['select', 'radio', 'select-combo', 'autocomplete']);

const isNumeric = (item: FormSchemaItem) => WHOLE_NUMBER_TYPES.has(item.type) || DECIMAL_TYPES.has(item.type);

/** spec3 §5 Value coercion defaults: empty for text kinds, 0 for numeric kinds, false for boolean. */
export const kindDefault = (item: FormSchemaItem): FormValue => {
  // fractionOrInteger is a numeric kind whose values stay text ('30000/1001'); its default is 0 all the same.
  if (isNumeric(item) || item.type === 'fractionOrInteger') return 0;
  if (BOOLEAN_TYPES.has(item.type)) return false;
  if (LIST_TYPES.has(item.type)) return [];
  if (item.type === 'custominputs') return null;
  return '';
};

const toBoolean = (raw: unknown): boolean | undefined => {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw !== 0;
  if (typeof raw === 'string') {
    const text = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(text)) return true;
    if (['false', '0', 'no', 'off', ''].includes(text)) return false;
  }
  return undefined;
};

const toNumber = (item: FormSchemaItem, raw: unknown): number | undefined => {
  const whole = WHOLE_NUMBER_TYPES.has(item.type);
  let number: number;
  if (typeof raw === 'number') number = whole ? Math.trunc(raw) : raw;
  else if (typeof raw === 'string') number = whole ? Number.parseInt(raw, 10) : Number.parseFloat(raw);
  else return undefined;
  return Number.isFinite(number) ? number : undefined;
};

/** minValue/maxValue clamp; evenNumber rounds down to even, then up by two if that fell below minValue. */
const bound = (item: FormSchemaItem, value: number) => {
  let result = value;
  if (item.minValue !== undefined) result = Math.max(result, item.minValue);
  if (item.maxValue !== undefined) result = Math.min(result, item.maxValue);
  if (item.evenNumber) {
    result = Math.floor(result / 2) * 2;
    if (item.minValue !== undefined && result < item.minValue) result += 2;
  }
  return result === 0 ? 0 : result;
};

const coerceToKind = (item: FormSchemaItem, raw: unknown): FormValue | undefined => {
  if (raw === undefined || raw === null) return undefined;
  if (isNumeric(item)) {
    const number = toNumber(item, raw);
    return number === undefined ? undefined : bound(item, number);
  }
  if (BOOLEAN_TYPES.has(item.type)) return toBoolean(raw);
  if (LIST_TYPES.has(item.type)) {
    if (Array.isArray(raw)) return raw.map(String);
    return typeof raw === 'string' ? raw.split(',').filter((part) => part !== '') : undefined;
  }
  if (item.type === 'custominputs') return raw as FormValue;
  if (typeof raw === 'object') return undefined;
  return String(raw);
};

/** The default of a field: its defaultValue, made to fit its kind, else the kind's default. */
export const fieldDefault = (item: FormSchemaItem): FormValue => {
  const fitted = item.defaultValue === undefined ? undefined : coerceToKind(item, item.defaultValue);
  if (fitted !== undefined) return fitted;
  // The numeric default 0 is clamped like any value, so a field with minValue 1 never starts below it.
  return isNumeric(item) ? bound(item, 0) : kindDefault(item);
};

/**
 * spec3 §5 Value coercion: integers whole, numbers decimal, a non-number gives the default; evenNumber rounds
 * down to even; minValue and maxValue clamp; text becomes a string, boolean true or false; a value outside
 * allowedValues falls back to the default.
 */
export const coerceValue = (item: FormSchemaItem, raw: unknown): FormValue => {
  const value = coerceToKind(item, raw);
  if (value === undefined) return fieldDefault(item);
  const allowed = item.allowedValues;
  if (allowed && allowed.length > 0) {
    const pick = (one: string) => allowed.find((candidate) => String(candidate) === one);
    if (Array.isArray(value)) return value.filter((one) => pick(one) !== undefined);
    const match = pick(String(value));
    if (match === undefined) return fieldDefault(item);
    if (isNumeric(item)) return Number.isFinite(Number(match)) ? Number(match) : fieldDefault(item);
    // A choice keeps the allowed value as the server wrote it; other kinds keep their own type.
    return CHOICE_TYPES.has(item.type) ? match : value;
  }
  return value;
};

const flatten = (schema: FormSchema): FormSchemaItem[] =>
  schema.flatMap((item) => [item, ...flatten(item.groupFields ?? [])]);

/** The starting values of a form: each field's value coerced (or its default); other keys are kept. */
export const initialValues = (schema: FormSchema, values: FormValues = {}): FormValues => {
  const result: FormValues = { ...values };
  for (const item of flatten(schema)) {
    if (VALUELESS_TYPES.has(item.type)) continue;
    result[item.name] = coerceValue(item, values[item.name]);
  }
  return result;
};
