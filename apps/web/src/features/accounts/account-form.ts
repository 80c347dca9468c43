/** The account settings forms: their fields, the contract's checks, read-only looks and save state (spec1 §2, §5, §6). */
import { type Account, accountUpdateSchema, isDirty } from '@media/contract';
import { useEffect, useState } from 'react';
import { useUpdateAccount } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useSaveState } from '../../ui/useSaveState.ts';

export const DATA_FIELDS = [
  'productionName',
  'department',
  'billingId',
  'billingGroupId',
  'editLimit',
  'welcomeMessage',
  'notes',
  'siteId',
  'version',
  'launchMode',
  'skin',
  'defaultEditMode',
  'concurrentUserLimit',
  'disabled',
] as const;
export const CONTACT_FIELDS = ['contactName', 'contactEmail', 'contactCompany', 'contactPhone'] as const;

export type FormField = (typeof DATA_FIELDS)[number] | (typeof CONTACT_FIELDS)[number];
export type FieldErrors = Partial<Record<string, string>>;

export const pick = <K extends FormField>(account: Account, fields: readonly K[]) =>
  Object.fromEntries(fields.map((field) => [field, account[field]])) as Pick<Account, K>;

/** The fields the user changed, as the partial update the server takes. */
export const changesOf = <T extends Partial<Record<FormField, unknown>>>(value: T, saved: T) =>
  Object.fromEntries(Object.entries(value).filter(([field, v]) => v !== saved[field as keyof T])) as Partial<
    Record<FormField, unknown>
  >;

/** The contract's own rules, so the form says what the server would say before it is asked. */
export const validate = (change: Partial<Record<FormField, unknown>>) => {
  const result = accountUpdateSchema.safeParse(change);
  if (result.success) return { data: result.data, errors: {} as FieldErrors };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { data: undefined, errors };
};

/** Read-only fields look it: filled rather than outlined. */
export const lockedProps = (locked: boolean) => ({
  readOnly: locked,
  variant: locked ? ('filled' as const) : ('default' as const),
});

export const failureText = (error: unknown) =>
  `An error occurred while submitting the data: ${error instanceof Error ? error.message : 'unknown'}`;

/**
 * One of the two forms: its own save state and leave warning, the contract's validation of the edited
 * fields, the server's field messages after a refused save, and fresh server data taken in while clean.
 */
export const useAccountForm = <K extends FormField>(account: Account, fields: readonly K[]) => {
  const update = useUpdateAccount(account);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const form = useSaveState(pick(account, fields), {
    save: async (value) => {
      const { data, errors } = validate(changesOf(value, form.saved));
      if (!data) throw new Error(Object.values(errors)[0] ?? 'Invalid value');
      try {
        return pick(await update.mutateAsync(data), fields);
      } catch (error) {
        if (error instanceof ApiError && error.fields) setServerErrors(error.fields);
        throw error;
      }
    },
  });

  // A change made elsewhere (live update) shows at once unless the user is editing this form.
  const { reset, value, saved } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new server copy may reset the form
  useEffect(() => {
    if (!isDirty(value, saved)) reset(pick(account, fields));
  }, [account]);

  const clientErrors = validate(changesOf(form.value, form.saved)).errors;
  const errorOf = (field: K) => clientErrors[field] ?? serverErrors[field];
  const set = <F extends K>(field: F, next: Account[F]) => {
    form.setValue({ ...form.value, [field]: next });
    setServerErrors(({ [field]: _gone, ...rest }) => rest);
  };
  const discard = () => {
    form.discard();
    setServerErrors({});
  };
  return { form, set, discard, errorOf, valid: Object.keys(clientErrors).length === 0 };
};
