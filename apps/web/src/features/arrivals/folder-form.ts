import { ARRIVALS_MESSAGES, type ArrivalsFolderType, type OptionDefinition } from '@media/contract';

export type OptionValue = string | number | boolean;
/** What the folder form edits; the name has its own rename (POST {id, name}). */
export type FolderForm = {
  typeId: string;
  priority: number;
  options: Record<string, OptionValue>;
};

/** An option's default, in the kind of value its control holds. */
export const optionDefault = (option: OptionDefinition): OptionValue =>
  option.kind === 'boolean'
    ? option.default === 'true'
    : option.kind === 'number'
      ? option.default === ''
        ? ''
        : Number(option.default)
      : option.default;

/** The options a type starts with: each option's default. */
export const defaultOptions = (type: ArrivalsFolderType | undefined) =>
  Object.fromEntries((type?.options ?? []).map((option) => [option.name, optionDefault(option)]));

/** The form's complaints, by field ('name', 'typeId' or an option name). */
export const folderFormErrors = (form: FolderForm, type: ArrivalsFolderType | undefined, name: string) => {
  const errors: Record<string, string> = {};
  if (!name.trim()) errors.name = ARRIVALS_MESSAGES.required;
  if (!form.typeId) errors.typeId = ARRIVALS_MESSAGES.required;
  for (const option of type?.options ?? []) {
    const value = form.options[option.name];
    if (option.required && (value === undefined || value === ''))
      errors[option.name] = ARRIVALS_MESSAGES.required;
  }
  return errors;
};

/** Only the options the type defines travel to the server (it refuses unknown ones). */
export const optionsOfType = (form: FolderForm, type: ArrivalsFolderType | undefined) =>
  Object.fromEntries(
    (type?.options ?? [])
      .filter((option) => form.options[option.name] !== undefined && form.options[option.name] !== '')
      .map((option) => [option.name, form.options[option.name] as OptionValue]),
  );
