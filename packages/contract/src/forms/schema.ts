import { z } from 'zod';

/** spec3 §3 Dynamic-form schema item: the field kinds a server-delivered form may hold. */
export const TEXT_FIELD_TYPES = [
  'text',
  'textarea',
  'emailAddress',
  'url',
  'password',
  'hidden',
  'readonly',
  'staticText',
] as const;
export const NUMERIC_FIELD_TYPES = ['integer', 'number', 'fractionOrInteger'] as const;
export const CHOICE_FIELD_TYPES = [
  'select',
  'select-combo',
  'radio',
  'multiple',
  'autocomplete',
  'typeahead-dir',
] as const;
export const OTHER_FIELD_TYPES = [
  'boolean',
  'checkbox',
  'toggle',
  'group',
  'button',
  'custominputs',
] as const;
export const FORM_FIELD_TYPES = [
  ...TEXT_FIELD_TYPES,
  ...NUMERIC_FIELD_TYPES,
  ...CHOICE_FIELD_TYPES,
  ...OTHER_FIELD_TYPES,
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export type FormValue = string | number | boolean | string[] | null;
const formValueSchema: z.ZodType<FormValue> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.null(),
]);

/** requiredIf: [field, 'equal' | 'notequal', value]. */
export const requiredIfSchema = z.tuple([z.string(), z.enum(['equal', 'notequal']), formValueSchema]);

export const regexValidatorSchema = z.object({
  regex: z.string(),
  shouldMatch: z.boolean().default(true),
  message: z.string().optional(),
});

/**
 * One field of a form. `type` is kept a plain string so that an unknown kind reaches the form engine,
 * which reports it ('{type} has not been implemented') instead of the whole form failing to parse.
 */
export type FormSchemaItem = {
  name: string;
  type: string;
  label?: string;
  required?: boolean;
  requiredIf?: z.infer<typeof requiredIfSchema>;
  minLength?: number;
  maxLength?: number;
  customLength?: number;
  minValue?: number;
  maxValue?: number;
  evenNumber?: boolean;
  allowedValues?: (string | number)[];
  defaultValue?: FormValue;
  valueLabels?: Record<string, string>;
  selectOnly?: boolean;
  placeholder?: string;
  options?: Record<string, unknown>;
  showWhen?: string;
  enableWhen?: string;
  disabled?: boolean;
  readOnly?: boolean;
  readonly?: boolean;
  action?: string;
  hideable?: boolean;
  groupFields?: FormSchemaItem[];
  regexValidator?: z.infer<typeof regexValidatorSchema>;
  customValidator?: string;
};

export const formSchemaItemSchema: z.ZodType<FormSchemaItem> = z.lazy(() =>
  z.object({
    name: z.string().min(1),
    type: z.string().min(1),
    label: z.string().optional(),
    required: z.boolean().optional(),
    requiredIf: requiredIfSchema.optional(),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(0).optional(),
    customLength: z.number().int().min(0).optional(),
    minValue: z.number().optional(),
    maxValue: z.number().optional(),
    evenNumber: z.boolean().optional(),
    allowedValues: z.array(z.union([z.string(), z.number()])).optional(),
    defaultValue: formValueSchema.optional(),
    valueLabels: z.record(z.string(), z.string()).optional(),
    selectOnly: z.boolean().optional(),
    placeholder: z.string().optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    showWhen: z.string().optional(),
    enableWhen: z.string().optional(),
    disabled: z.boolean().optional(),
    readOnly: z.boolean().optional(),
    readonly: z.boolean().optional(),
    action: z.string().optional(),
    hideable: z.boolean().optional(),
    groupFields: z.array(formSchemaItemSchema).optional(),
    regexValidator: regexValidatorSchema.optional(),
    customValidator: z.string().optional(),
  }),
);

export const formSchemaSchema = z.array(formSchemaItemSchema);
export type FormSchema = FormSchemaItem[];
export type FormValues = Record<string, FormValue>;

/** spec3 §4 Server form actions: what a module or service action answers. */
export const serverFormActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('open-url'), url: z.string() }),
  z.object({ action: z.literal('set-options'), options: z.record(z.string(), z.unknown()) }),
  z.object({
    action: z.literal('display-message'),
    message: z.string(),
    type: z.enum(['danger', 'warning', 'success', 'info']).default('danger'),
  }),
  z.object({ action: z.literal('none') }),
]);
export type ServerFormAction = z.infer<typeof serverFormActionSchema>;
