import { FORM_MESSAGES, type FormValidation, type FormValue, type FormValues } from '@media/contract';

const sameValue = (a: FormValue | undefined, b: FormValue | undefined) => {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((one, i) => one === b[i]);
  return (a ?? null) === (b ?? null);
};

/** Dirty means some value differs from the pristine snapshot (changing it back makes the form clean). */
export const isFormDirty = (values: FormValues, pristine: FormValues) =>
  [...new Set([...Object.keys(values), ...Object.keys(pristine)])].some(
    (name) => !sameValue(values[name], pristine[name]),
  );

/**
 * The messages a field shows: the required error ('This field cannot be empty', kept apart from the
 * messages by the rules) once the field was touched, then the other messages.
 */
export const shownMessages = (display: FormValidation, name: string, touched: boolean): string[] => [
  ...(touched && display.required[name] ? [FORM_MESSAGES.empty] : []),
  ...(display.errors[name] ?? []),
];

/** Replaces one field's entry in a validation result (the immediate check on change). */
export const withFieldValidation = (
  display: FormValidation,
  name: string,
  full: FormValidation,
): FormValidation => {
  const errors = { ...display.errors };
  const required = { ...display.required };
  if (full.errors[name]) errors[name] = full.errors[name];
  else delete errors[name];
  if (full.required[name]) required[name] = true;
  else delete required[name];
  return {
    ...display,
    errors,
    required,
    requiredFields: { ...display.requiredFields, [name]: full.requiredFields[name] ?? false },
  };
};

export type ScreenBox = { width: number; height: number; left?: number; top?: number };

/** spec3 §4 open-url: the popup's window features, centred on the screen. */
export const centredPopupFeatures = (screen: ScreenBox, width = 800, height = 600) => {
  const w = Math.min(width, screen.width);
  const h = Math.min(height, screen.height);
  const left = Math.round((screen.left ?? 0) + (screen.width - w) / 2);
  const top = Math.round((screen.top ?? 0) + (screen.height - h) / 2);
  return `popup=yes,width=${w},height=${h},left=${left},top=${top}`;
};

/** Only the values a form can hold survive a set-options answer. */
export const formValuesOf = (options: Record<string, unknown>): FormValues => {
  const values: FormValues = {};
  for (const [name, value] of Object.entries(options)) {
    if (
      value === null ||
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((one) => typeof one === 'string'))
    )
      values[name] = value as FormValue;
  }
  return values;
};
