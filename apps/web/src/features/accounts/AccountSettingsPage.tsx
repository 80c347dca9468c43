import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Loader,
  Menu,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type Account,
  accountUpdateSchema,
  CHANNELS,
  concurrentUserLimitOptions,
  EDGE_LINKS,
  EDIT_MODES,
  isDirty,
  MSG_ACCOUNT_DISABLED_LABEL,
  MSG_ACCOUNT_SITE_CHANGED_RELOAD,
  MSG_CHANGES_SAVED,
  MSG_DATA_SAVED_GENERIC,
} from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  accountByNameKey,
  useAccountByName,
  useAccountRoles,
  useEditorOptions,
  useLaunchAccount,
  useUpdateAccount,
} from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useLiveChannel } from '../../api/live.ts';
import { ALL_ROWS, useOrgList } from '../../api/organisation.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { Section, SectionLinks } from '../../ui/Section.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { ExtraDataSection, INGEST_FORMATS_SECTION_ID } from '../account-config/ExtraDataSection.tsx';
import { IngestFormatsSection } from '../account-config/IngestFormatsSection.tsx';
import { KeyboardExpansionMapsSection } from '../account-config/KeyboardExpansionMapsSection.tsx';
import { KeyShortcutsSection } from '../account-config/KeyShortcutsSection.tsx';
import { MetadataColumnsSection } from '../account-config/MetadataColumnsSection.tsx';
import { accountSettingsPath } from './AccountsTable.tsx';

const DATA_FIELDS = [
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
const CONTACT_FIELDS = ['contactName', 'contactEmail', 'contactCompany', 'contactPhone'] as const;

type FormField = (typeof DATA_FIELDS)[number] | (typeof CONTACT_FIELDS)[number];
type FieldErrors = Partial<Record<string, string>>;

const pick = <K extends FormField>(account: Account, fields: readonly K[]) =>
  Object.fromEntries(fields.map((field) => [field, account[field]])) as Pick<Account, K>;

/** The fields the user changed, as the partial update the server takes. */
const changesOf = <T extends Partial<Record<FormField, unknown>>>(value: T, saved: T) =>
  Object.fromEntries(Object.entries(value).filter(([field, v]) => v !== saved[field as keyof T])) as Partial<
    Record<FormField, unknown>
  >;

/** The contract's own rules, so the form says what the server would say before it is asked. */
const validate = (change: Partial<Record<FormField, unknown>>) => {
  const result = accountUpdateSchema.safeParse(change);
  if (result.success) return { data: result.data, errors: {} as FieldErrors };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { data: undefined, errors };
};

/** Read-only fields look it: filled rather than outlined. */
const lockedProps = (locked: boolean) => ({
  readOnly: locked,
  variant: locked ? ('filled' as const) : ('default' as const),
});

const failureText = (error: unknown) =>
  `An error occurred while submitting the data: ${error instanceof Error ? error.message : 'unknown'}`;

/**
 * One of the two forms: its own save state and leave warning, the contract's validation of the edited
 * fields, the server's field messages after a refused save, and fresh server data taken in while clean.
 */
const useAccountForm = <K extends FormField>(account: Account, fields: readonly K[]) => {
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

/** `/accounts/{accountName}/`: the account's settings, the way into its users and managers, Edit as role. */
export const AccountSettingsPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  const queryClient = useQueryClient();
  useLiveChannel(
    account.data ? CHANNELS.account(account.data.id) : undefined,
    () => void queryClient.invalidateQueries({ queryKey: accountByNameKey(accountName) }),
  );

  if (account.isPending) return <Loader aria-label="Loading" />;
  if (account.isError) {
    const missing = account.error instanceof ApiError && account.error.status === 404;
    return (
      <Alert color="red" role="alert" title={missing ? 'Account not found' : undefined}>
        {missing
          ? `There is no account named "${accountName}" that you can see.`
          : `An error occurred while fetching the data: ${account.error.message}`}
      </Alert>
    );
  }
  return <AccountSettings key={account.data.id} account={account.data} />;
};

const AccountSettings = ({ account }: { account: Account }) => {
  const { access } = account;
  return (
    <Stack maw={960}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="xs">
            <Title order={2}>{account.name}</Title>
            {account.disabled && (
              <Badge color="gray" variant="light">
                Disabled
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm">
            {account.productionName || 'No production name'} · site{' '}
            <Anchor component={Link} to={`/site/${account.siteId}/`} size="sm">
              {account.siteName}
            </Anchor>
          </Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to={`${accountSettingsPath(account.name)}users`} variant="default">
            Users
          </Button>
          <Button component={Link} to={`${accountSettingsPath(account.name)}media`} variant="default">
            Media
          </Button>
          <Button component={Link} to={`${accountSettingsPath(account.name)}webupload`} variant="default">
            Web upload
          </Button>
          {access.canManage && (
            <Button component={Link} to={`${accountSettingsPath(account.name)}metaupload`} variant="default">
              Metadata upload
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={EDGE_LINKS.arrivals(account.id)} variant="default">
              Arrivals folders
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={`${accountSettingsPath(account.name)}publishing`} variant="default">
              Publishing buttons
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={EDGE_LINKS.accountIngestQueue(account.id)} variant="default">
              Ingest queue
            </Button>
          )}
          {access.canManage && (
            <Button
              component={Link}
              to={`${accountSettingsPath(account.name)}users?element_id_to_jump_to=account-managers`}
              variant="default"
            >
              Managers
            </Button>
          )}
          {access.canManage && <EditAsRoleMenu account={account} />}
        </Group>
      </Group>
      {!access.canManage && (
        <Alert color="blue">You can see this account's settings; only its managers can change them.</Alert>
      )}
      <SectionLinks
        sections={[
          { id: 'account-data', title: 'Account data' },
          { id: 'account-contact', title: 'Account contact' },
          { id: 'metadata-columns', title: 'Metadata columns' },
          { id: INGEST_FORMATS_SECTION_ID, title: 'Ingest formats' },
          ...(access.canManage ? [{ id: 'extra-data', title: 'Extra data' }] : []),
          { id: 'keyboard-expansion-maps', title: 'Keyboard expansion maps' },
          { id: 'key-shortcuts', title: 'Key shortcuts' },
        ]}
      />
      <Section title="Account data" id="account-data">
        <AccountDataForm account={account} />
      </Section>
      <Section title="Account contact" id="account-contact">
        <AccountContactForm account={account} />
      </Section>
      <Section title="Metadata columns" id="metadata-columns">
        <MetadataColumnsSection owner={{ scope: 'accounts', id: account.id }} canEdit={access.canManage} />
      </Section>
      <Section title="Ingest formats" id={INGEST_FORMATS_SECTION_ID}>
        <IngestFormatsSection accountId={account.id} canManage={access.canManage} />
      </Section>
      {access.canManage && (
        <Section title="Extra data" id="extra-data">
          <ExtraDataSection scope="accounts" id={account.id} canEdit />
        </Section>
      )}
      <Section title="Keyboard expansion maps" id="keyboard-expansion-maps">
        <KeyboardExpansionMapsSection account={account} canManage={access.canManage} />
      </Section>
      <Section title="Key shortcuts" id="key-shortcuts">
        <KeyShortcutsSection context={{ accountId: account.id, siteId: account.siteId }} />
      </Section>
    </Stack>
  );
};

/** spec1 §2 Edit-role dropdown: the site's roles by name; choosing one launches the editor as that role. */
const EditAsRoleMenu = ({ account }: { account: Account }) => {
  const roles = useAccountRoles(account.siteId);
  const launch = useLaunchAccount(account.id);
  const navigate = useNavigate();
  const editAs = async (roleId: number) => {
    try {
      const { url } = await launch.mutateAsync(roleId);
      await navigate(url);
    } catch (error) {
      showAlert({
        type: 'danger',
        text: error instanceof Error ? error.message : String(error),
        source: 'launch',
      });
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button loading={launch.isPending}>Edit as role</Button>
      </Menu.Target>
      <Menu.Dropdown>
        {roles.isPending && <Menu.Label>Loading roles…</Menu.Label>}
        {roles.isError && <Menu.Label c="red">Roles could not be loaded: {roles.error.message}</Menu.Label>}
        {roles.data?.length === 0 && <Menu.Label>No roles on this site</Menu.Label>}
        {roles.data?.map((role) => (
          <Menu.Item key={role.id} onClick={() => void editAs(role.id)}>
            {role.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
};

const LIMIT_OPTIONS = concurrentUserLimitOptions().map((option) => ({
  value: option.value === null ? 'none' : String(option.value),
  label: option.label,
}));
const limitFromKey = (key: string | null) => (key === null || key === 'none' ? null : Number(key));

/** Options for a select: the loaded list, plus the current value so it shows while loading or unlisted. */
const withCurrent = (options: readonly string[] | undefined, current: string) =>
  options?.includes(current) || !current ? [...(options ?? [])] : [current, ...(options ?? [])];

/** spec1 §2 / §5 / §6 Account data form; read-only parts follow what the user may change. */
const AccountDataForm = ({ account }: { account: Account }) => {
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

/** spec1 §2 / §5 Account contact form. */
const AccountContactForm = ({ account }: { account: Account }) => {
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
