import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type Account, MSG_CHANGES_SAVED } from '@media/contract';
import { showAlert } from '../../ui/alerts.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { CONTACT_FIELDS, failureText, lockedProps, useAccountForm } from './account-form.ts';

/** spec1 §2 / §5 Account contact form. */
export const AccountContactForm = ({ account }: { account: Account }) => {
  const { form, set, discard, errorOf, valid } = useAccountForm(account, CONTACT_FIELDS);
  const readOnly = !account.access.canManage;
  const v = form.value;

  const save = async () => {
    try {
      await form.save();
      showAlert({ type: 'success', text: MSG_CHANGES_SAVED, source: 'accountContact' });
    } catch (error) {
      showAlert({ type: 'danger', text: failureText(error), source: 'accountContact' });
    }
  };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Contact name"
          required
          {...lockedProps(readOnly)}
          value={v.contactName}
          error={errorOf('contactName')}
          onChange={(e) => set('contactName', e.currentTarget.value)}
        />
        <TextInput
          label="Contact email"
          type="email"
          required
          {...lockedProps(readOnly)}
          value={v.contactEmail}
          error={errorOf('contactEmail')}
          onChange={(e) => set('contactEmail', e.currentTarget.value)}
        />
        <TextInput
          label="Contact company"
          {...lockedProps(readOnly)}
          value={v.contactCompany}
          error={errorOf('contactCompany')}
          onChange={(e) => set('contactCompany', e.currentTarget.value)}
        />
        <TextInput
          label="Contact phone"
          type="tel"
          {...lockedProps(readOnly)}
          value={v.contactPhone}
          error={errorOf('contactPhone')}
          onChange={(e) => set('contactPhone', e.currentTarget.value)}
        />
      </SimpleGrid>
      {!readOnly && (
        <FormButtons state={form.state} dirty={form.dirty} valid={valid} onSave={save} onDiscard={discard} />
      )}
    </Stack>
  );
};
