import type { FORM_FIELD_TYPES, FormSchemaItem } from './schema.ts';

/** The input a field shows (spec3 §5 Field type mapping). */
export type InputKind =
  | 'text'
  | 'textarea'
  | 'url'
  | 'email'
  | 'password'
  | 'hidden'
  | 'readonly'
  | 'static'
  | 'number'
  | 'checkbox'
  | 'toggle'
  | 'select'
  | 'combo'
  | 'radio'
  | 'multiple'
  | 'tags'
  | 'autocomplete'
  | 'directory'
  | 'group'
  | 'button'
  | 'custom';

export const unimplementedFieldMessage = (type: string) => `${type} has not been implemented`;

/** An unknown field type (spec3 §5): '{type} has not been implemented'. */
export class UnimplementedFieldError extends Error {
  constructor(readonly type: string) {
    super(unimplementedFieldMessage(type));
  }
}

const BY_TYPE: Record<(typeof FORM_FIELD_TYPES)[number], InputKind> = {
  text: 'text',
  fractionOrInteger: 'text',
  emailAddress: 'email',
  textarea: 'textarea',
  url: 'url',
  password: 'password',
  hidden: 'hidden',
  readonly: 'readonly',
  staticText: 'static',
  number: 'number',
  integer: 'number',
  boolean: 'checkbox',
  checkbox: 'checkbox',
  toggle: 'toggle',
  select: 'select',
  'select-combo': 'combo',
  radio: 'radio',
  multiple: 'multiple',
  autocomplete: 'autocomplete',
  'typeahead-dir': 'directory',
  group: 'group',
  button: 'button',
  custominputs: 'custom',
};

/** Kinds whose own widget already offers choices, so allowedValues does not turn them into a select. */
const KEEPS_OWN_WIDGET = new Set<InputKind>([
  'hidden',
  'readonly',
  'static',
  'combo',
  'radio',
  'multiple',
  'autocomplete',
  'directory',
  'group',
  'button',
  'custom',
]);

const isKnownType = (type: string): type is keyof typeof BY_TYPE => Object.hasOwn(BY_TYPE, type);

/**
 * The input of a field: text, fractionOrInteger and emailAddress a text input (email is a text input with the
 * email keyboard), textarea a textarea, url a url input, number and integer a number input, boolean a
 * checkbox, and a field with allowedValues a select. A multiple field without allowedValues takes free tags.
 * Throws UnimplementedFieldError for an unknown type.
 */
export const inputKindOf = (item: FormSchemaItem): InputKind => {
  if (!isKnownType(item.type)) throw new UnimplementedFieldError(item.type);
  const kind = BY_TYPE[item.type];
  if (kind === 'multiple' && item.allowedValues === undefined) return 'tags';
  if (item.allowedValues !== undefined && !KEEPS_OWN_WIDGET.has(kind)) return 'select';
  return kind;
};

/** inputKindOf without the throw: the kind, or the spec's error text for an unknown type. */
export const inputKindOrError = (item: FormSchemaItem): { kind: InputKind } | { error: string } =>
  isKnownType(item.type) ? { kind: inputKindOf(item) } : { error: unimplementedFieldMessage(item.type) };
