import { evaluateEnableWhen, evaluateShowWhen } from './expression.ts';
import {
  CHOICE_FIELD_TYPES,
  type FormSchema,
  type FormSchemaItem,
  type FormValue,
  type FormValues,
  NUMERIC_FIELD_TYPES,
  TEXT_FIELD_TYPES,
} from './schema.ts';

export * from './coercion.ts';
export * from './expression.ts';
export * from './field-kinds.ts';

/** spec3 §5 Dynamic form messages, word for word. */
export const FORM_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  /** The wording the form engine uses for an empty required field. */
  empty: 'This field cannot be empty',
  /** The other wording spec3 §5 mentions for the same error. */
  required: 'This field is required',
  minLength: (n: number) => `Please enter at least ${n} characters`,
  characterLimit: 'Character limit exceeded',
  invalidValue: 'Invalid Value',
  regex: (regex: string) => `Invalid value (should match '${regex}')`,
  deprecatedOption: (value: string) => `${value} (deprecated option)`,
  selectPlaceholder: '--- Select an option ---',
} as const;

/** spec3 §9: full validation runs this long after a change. */
export const FORM_VALIDATION_DEBOUNCE_MS = 500;
/** spec3 §9: the remaining-characters hint shows from this share of maxLength. */
export const CHARACTER_COUNTER_THRESHOLD = 0.8;

/** A named custom validator: gets the value and all values, answers a message or null. */
export type CustomValidator = (value: FormValue, values: FormValues) => string | null;
export type CustomValidators = Record<string, CustomValidator>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FRACTION_OR_INTEGER = /^\d+(\/[1-9]\d*)?$/;

export const isEmptyValue = (value: FormValue | undefined) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** spec3 §5: a select with an empty option is never required. */
export const hasEmptyOption = (item: FormSchemaItem) =>
  (item.allowedValues ?? Object.keys(item.valueLabels ?? {})).some((value) => value === '');

/** Whether the field is required now: requiredIf [field, equal|notequal, value] decides when given. */
export const isFieldRequired = (item: FormSchemaItem, values: FormValues) => {
  if (hasEmptyOption(item)) return false;
  if (!item.requiredIf) return item.required === true;
  const [field, comparison, expected] = item.requiredIf;
  const actual = values[field];
  const equal =
    actual === null || actual === undefined || expected === null
      ? (actual ?? null) === expected
      : String(actual) === String(expected);
  return comparison === 'equal' ? equal : !equal;
};

/** The character limit of a text field: customLength, when given, overrides maxLength. */
export const characterLimit = (item: FormSchemaItem) => item.customLength ?? item.maxLength;

/** spec3 §5: 'n / max' once usage reaches 80% of maxLength, else nothing. */
export const characterCounter = (value: FormValue | undefined, maxLength: number | undefined) => {
  if (!maxLength || maxLength <= 0) return null;
  const used = typeof value === 'string' ? value.length : value == null ? 0 : String(value).length;
  return used >= maxLength * CHARACTER_COUNTER_THRESHOLD ? `${used} / ${maxLength}` : null;
};

const isText = (type: string) =>
  (TEXT_FIELD_TYPES as readonly string[]).includes(type) ||
  type === 'fractionOrInteger' ||
  type === 'select-combo' ||
  type === 'autocomplete' ||
  type === 'typeahead-dir';

const numericMessages = (item: FormSchemaItem, value: FormValue): string[] => {
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  if (Number.isNaN(number) || !Number.isFinite(number)) return [FORM_MESSAGES.invalidValue];
  if (item.type === 'integer' && !Number.isInteger(number)) return [FORM_MESSAGES.invalidValue];
  if (item.minValue !== undefined && number < item.minValue) return [FORM_MESSAGES.invalidValue];
  if (item.maxValue !== undefined && number > item.maxValue) return [FORM_MESSAGES.invalidValue];
  if (item.evenNumber && number % 2 !== 0) return [FORM_MESSAGES.invalidValue];
  return [];
};

const regexMessages = (item: FormSchemaItem, value: FormValue): string[] => {
  const rule = item.regexValidator;
  if (!rule) return [];
  let pattern: RegExp;
  try {
    pattern = new RegExp(rule.regex);
  } catch {
    return [];
  }
  const texts = Array.isArray(value) ? value : [String(value)];
  const shouldMatch = rule.shouldMatch ?? true;
  return texts.some((text) => pattern.test(text) !== shouldMatch)
    ? [rule.message ?? FORM_MESSAGES.regex(rule.regex)]
    : [];
};

export type FieldValidationOptions = {
  /** The message of a server-flagged (server-invalid) field. */
  serverError?: string;
  customValidators?: CustomValidators;
};

/**
 * The messages of one field (spec3 §5). Empty values pass every rule (required is reported apart, see
 * validateForm); a server-flagged field shows the server's message; all failures are collected.
 */
export const validateField = (
  item: FormSchemaItem,
  value: FormValue | undefined,
  values: FormValues,
  options: FieldValidationOptions = {},
): string[] => {
  const messages: string[] = [];
  if (!isEmptyValue(value) && value !== undefined) {
    const text = typeof value === 'string' ? value : String(value);
    if (item.type === 'emailAddress' && !EMAIL.test(text.trim())) messages.push(FORM_MESSAGES.invalidEmail);
    if (typeof value === 'string' && isText(item.type)) {
      if (item.minLength !== undefined && value.length < item.minLength)
        messages.push(FORM_MESSAGES.minLength(item.minLength));
      const limit = characterLimit(item);
      if (limit !== undefined && value.length > limit) messages.push(FORM_MESSAGES.characterLimit);
    }
    if (item.type === 'fractionOrInteger' && !FRACTION_OR_INTEGER.test(text.trim()))
      messages.push(FORM_MESSAGES.invalidValue);
    if ((NUMERIC_FIELD_TYPES as readonly string[]).includes(item.type) && item.type !== 'fractionOrInteger')
      messages.push(...numericMessages(item, value));
    messages.push(...regexMessages(item, value));
    for (const name of (item.customValidator ?? '').split(',').map((part) => part.trim())) {
      const message = name ? options.customValidators?.[name]?.(value, values) : null;
      if (message) messages.push(message);
    }
  }
  if (options.serverError) messages.push(options.serverError);
  return messages;
};

/** Every field of a schema, the fields of groups included, in order. */
export const flattenSchema = (schema: FormSchema): FormSchemaItem[] =>
  schema.flatMap((item) => [item, ...flattenSchema(item.groupFields ?? [])]);

/** Kinds that hold no value of their own. */
const VALUELESS_TYPES = new Set(['group', 'button', 'staticText']);
export const holdsValue = (item: FormSchemaItem) => !VALUELESS_TYPES.has(item.type);

export type FormValidation = {
  valid: boolean;
  /** The messages per field, the required error not among them (spec3 §5). */
  errors: Record<string, string[]>;
  /** Per field: required and empty, which the engine shows as 'This field cannot be empty'. */
  required: Record<string, boolean>;
  /** Per field: whether the field is required now (requiredIf, empty select option applied). */
  requiredFields: Record<string, boolean>;
};

const visibleItems = (schema: FormSchema, values: FormValues): FormSchemaItem[] =>
  schema.flatMap((item) => {
    if (!isFieldShown(item, values)) return [];
    return [item, ...visibleItems(item.groupFields ?? [], values)];
  });

/** spec3 §5 showWhen, for one field. */
export const isFieldShown = (item: FormSchemaItem, values: FormValues) =>
  evaluateShowWhen(item.showWhen, values);

/** Whether a field takes input now: not disabled, not read-only, enableWhen true. */
export const isFieldEnabled = (item: FormSchemaItem, values: FormValues) =>
  !item.disabled &&
  !item.readOnly &&
  !item.readonly &&
  item.type !== 'readonly' &&
  evaluateEnableWhen(item.enableWhen, values);

/**
 * Validates the shown fields of a form (hidden ones cannot be corrected, so they do not block it).
 * Server errors mark their fields invalid with the server's message.
 */
export const validateForm = (
  schema: FormSchema,
  values: FormValues,
  serverErrors: Record<string, string> = {},
  customValidators: CustomValidators = {},
): FormValidation => {
  const errors: Record<string, string[]> = {};
  const required: Record<string, boolean> = {};
  const requiredFields: Record<string, boolean> = {};
  for (const item of visibleItems(schema, values)) {
    if (!holdsValue(item)) continue;
    const value = values[item.name];
    const messages = validateField(item, value, values, {
      serverError: serverErrors[item.name],
      customValidators,
    });
    if (messages.length > 0) errors[item.name] = messages;
    requiredFields[item.name] = isFieldRequired(item, values);
    if (requiredFields[item.name] && isEmptyValue(value)) required[item.name] = true;
  }
  const valid = Object.keys(errors).length === 0 && Object.keys(required).length === 0;
  return { valid, errors, required, requiredFields };
};

export type SelectOption = { value: string; label: string; deprecated?: boolean };

/** spec3 §5 select options: labels from valueLabels; a current value not among them is a deprecated option. */
export const selectOptions = (item: FormSchemaItem, current?: FormValue): SelectOption[] => {
  const labels = item.valueLabels ?? {};
  const allowed = item.allowedValues ?? Object.keys(labels);
  const options: SelectOption[] = allowed.map((value) => ({
    value: String(value),
    label: labels[String(value)] ?? String(value),
  }));
  const currentValues = Array.isArray(current) ? current : isEmptyValue(current) ? [] : [String(current)];
  for (const value of currentValues) {
    if (!options.some((option) => option.value === value))
      options.push({ value, label: FORM_MESSAGES.deprecatedOption(value), deprecated: true });
  }
  return options;
};

/** Whether a field offers a fixed list of choices. */
export const isChoiceField = (item: FormSchemaItem) =>
  (CHOICE_FIELD_TYPES as readonly string[]).includes(item.type) || item.allowedValues !== undefined;
