import {
  Checkbox,
  Divider,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  type Account,
  concurrentUserLimitOptions,
  EDIT_MODES,
  MSG_ACCOUNT_DISABLED_LABEL,
  MSG_ACCOUNT_SITE_CHANGED_RELOAD,
  MSG_DATA_SAVED_GENERIC,
} from '@media/contract';
import { useEffect, useState } from 'react';
import { useEditorOptions } from '../../api/accounts.ts';
import { ALL_ROWS, useOrgList } from '../../api/organisation.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { DATA_FIELDS, failureText, lockedProps, useAccountForm } from './account-form.ts';
import { accountSettingsPath } from './account-paths.ts';

const LIMIT_OPTIONS = concurrentUserLimitOptions().map((option) => ({
  value: option.value === null ? 'none' : String(option.value),
  label: option.label,
}));
const limitFromKey = (key: string | null) => (key === null || key === 'none' ? null : Number(key));

/** Options for a select: the loaded list, plus the current value so it shows while loading or unlisted. */
const withCurrent = (options: readonly string[] | undefined, current: string) =>
  options?.includes(current) || !current ? [...(options ?? [])] : [current, ...(options ?? [])];

/** spec1 §2 / §5 / §6 Account data form; read-only parts follow what the user may change. */
export const AccountDataForm = ({ account }: { account: Account }) => {
  const { access } = account;
  const { form, set, discard, errorOf, valid } = useAccountForm(account, DATA_FIELDS);
  const [reloadTo, setReloadTo] = useState<string | null>(null);
  const readOnly = !access.canManage;
  const v = form.value;

  // Choices are needed only where the user may choose; otherwise the current value is shown alone.
  const resellers = useOrgList('resellers', ALL_ROWS, {}, { enabled: !readOnly && access.canChangeReseller });
  const sites = useOrgList('sites', ALL_ROWS, {}, { enabled: !readOnly && access.canChangeSite });
  const versions = useEditorOptions('versions');
  const skins = useEditorOptions('skins');
  const launchModes = useEditorOptions('launchModes');

  // The page reloads once this form's save has cleared its leave warning (the 100 ms dirty check).
  useEffect(() => {
    if (reloadTo && !form.dirty) window.location.assign(reloadTo);
  }, [reloadTo, form.dirty]);

  const save = async () => {
    const siteBefore = form.saved.siteId;
    try {
      const saved = await form.save();
      if (saved.siteId !== siteBefore) {
        setReloadTo(
          `${accountSettingsPath(account.name)}?message=${encodeURIComponent(MSG_ACCOUNT_SITE_CHANGED_RELOAD)}`,
        );
        return;
      }
      showAlert({ type: 'success', text: MSG_DATA_SAVED_GENERIC, source: 'account' });
    } catch (error) {
      showAlert({ type: 'danger', text: failureText(error), source: 'account' });
    }
  };

  const billingGroups = (resellers.data?.results ?? []).map((r) => ({ value: r.id, label: r.name }));
  if (v.billingGroupId !== null && !billingGroups.some((g) => g.value === v.billingGroupId))
    billingGroups.unshift({
      value: v.billingGroupId,
      label: account.billingGroupName ?? `#${v.billingGroupId}`,
    });
  const siteOptions = (sites.data?.results ?? []).map((s) => ({ value: s.id, label: s.name }));
  if (!siteOptions.some((s) => s.value === v.siteId))
    siteOptions.unshift({ value: v.siteId, label: account.siteName });

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Production Name"
          {...lockedProps(readOnly)}
          value={v.productionName}
          error={errorOf('productionName')}
          onChange={(e) => set('productionName', e.currentTarget.value)}
        />
        <TextInput
          label="Department"
          {...lockedProps(readOnly)}
          value={v.department}
          error={errorOf('department')}
          onChange={(e) => set('department', e.currentTarget.value)}
        />
        <TextInput
          label="Billing id"
          {...lockedProps(readOnly || !access.canChangeBilling)}
          value={v.billingId}
          error={errorOf('billingId')}
          onChange={(e) => set('billingId', e.currentTarget.value)}
        />
        <Select<number>
          label="Billing Group"
          {...lockedProps(readOnly || !access.canChangeReseller)}
          clearable={!readOnly && access.canChangeReseller}
          placeholder="None"
          data={billingGroups}
          value={v.billingGroupId}
          error={errorOf('billingGroupId')}
          onChange={(next) => set('billingGroupId', next)}
        />
        <NumberInput
          label="Edit limit"
          {...lockedProps(readOnly)}
          min={0}
          allowDecimal={false}
          placeholder="No limit"
          value={v.editLimit ?? ''}
          error={errorOf('editLimit')}
          onChange={(next) => set('editLimit', next === '' ? null : Number(next))}
        />
        <Select
          label="Default edit mode"
          {...lockedProps(readOnly)}
          data={[...EDIT_MODES]}
          allowDeselect={false}
          value={v.defaultEditMode}
          error={errorOf('defaultEditMode')}
          onChange={(next) => next && set('defaultEditMode', next)}
        />
      </SimpleGrid>
      <Textarea
        label="Welcome Message"
        {...lockedProps(readOnly)}
        autosize
        minRows={3}
        maxRows={10}
        value={v.welcomeMessage}
        error={errorOf('welcomeMessage')}
        onChange={(e) => set('welcomeMessage', e.currentTarget.value)}
      />
      {access.canSeeNotes && (
        <Textarea
          label="Notes"
          {...lockedProps(readOnly)}
          autosize
          minRows={3}
          maxRows={10}
          value={v.notes ?? ''}
          error={errorOf('notes')}
          onChange={(e) => set('notes', e.currentTarget.value)}
        />
      )}
      <Divider label="Access limits" labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Concurrent user limit"
          {...lockedProps(readOnly || !access.canChangeBilling)}
          data={LIMIT_OPTIONS}
          allowDeselect={false}
          value={v.concurrentUserLimit === null ? 'none' : String(v.concurrentUserLimit)}
          error={errorOf('concurrentUserLimit')}
          onChange={(next) => set('concurrentUserLimit', limitFromKey(next))}
        />
        <Checkbox
          mt={{ base: 0, sm: 30 }}
          label={MSG_ACCOUNT_DISABLED_LABEL}
          disabled={readOnly || !access.canChangeBilling}
          checked={v.disabled}
          error={errorOf('disabled')}
          onChange={(e) => set('disabled', e.currentTarget.checked)}
        />
      </SimpleGrid>
      <Divider label="Site and editor (administrators)" labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select<number>
          label="Site"
          {...lockedProps(readOnly || !access.canChangeSite)}
          searchable
          allowDeselect={false}
          data={siteOptions}
          value={v.siteId}
          error={errorOf('siteId')}
          onChange={(next) => next !== null && set('siteId', next)}
        />
        <Select
          label="Version"
          {...lockedProps(readOnly || !access.canChangeSite)}
          allowDeselect={false}
          data={withCurrent(versions.data, v.version)}
          value={v.version}
          error={errorOf('version')}
          onChange={(next) => next && set('version', next)}
        />
        <Select
          label="Launch mode"
          {...lockedProps(readOnly || !access.canChangeSite)}
          allowDeselect={false}
          data={withCurrent(launchModes.data, v.launchMode)}
          value={v.launchMode}
          error={errorOf('launchMode')}
          onChange={(next) => next && set('launchMode', next)}
        />
        <Select
          label="Skin"
          {...lockedProps(readOnly || !access.canChangeSite)}
          allowDeselect={false}
          data={withCurrent(skins.data, v.skin)}
          value={v.skin}
          error={errorOf('skin')}
          onChange={(next) => next && set('skin', next)}
        />
      </SimpleGrid>
      {!readOnly && (
        <FormButtons state={form.state} dirty={form.dirty} valid={valid} onSave={save} onDiscard={discard} />
      )}
    </Stack>
  );
};
