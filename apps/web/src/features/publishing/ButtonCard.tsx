import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import {
  buttonProblems,
  isComplicated,
  isDirty,
  locationCheck,
  PUBLISH_MESSAGES,
  type PublishButton,
  type PublishIcon,
  type PublishLocation,
  type PublishModule,
} from '@media/contract';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import {
  type PublishContext,
  useCreatePublishButton,
  usePublishButtonStatus,
  useSavePublishButton,
  useSaveRoleRestrictions,
  useTrashPublishButton,
} from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { ClickToEdit } from '../../ui/ClickToEdit.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { markDirty } from '../../ui/unsaved-changes.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { RoleRestrictionsField, SettingsFields, SimpleNetworkFields, sameLocation } from './ButtonFields.tsx';
import { ButtonIcon } from './ButtonIcon.tsx';
import {
  type ButtonForm,
  bodyOf,
  formOf,
  missingOptions,
  nameError,
  nodesWithOptions,
  primaryNetwork,
  restrictionsFor,
  simpleNodes,
  withNetwork,
  withNodeModule,
  withNodeOptions,
} from './button-form.ts';
import { IconUploadDialog } from './IconUploadDialog.tsx';
import { NetworkPanel } from './NetworkPanel.tsx';
import { NodeOptions } from './NodeOptions.tsx';

export type Draft = { key: string; name: string; form: ButtonForm };

type Props = {
  ctx: PublishContext;
  /** The saved button, or null for a new one that lives only here until it is created. */
  button: PublishButton | null;
  draft?: Draft;
  modules: readonly PublishModule[];
  locations: readonly PublishLocation[];
  icons: readonly PublishIcon[];
  roles: readonly { id: number; name: string }[];
  uploadIcon: (file: File, onProgress: (fraction: number) => void) => Promise<PublishIcon>;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  networkMode: boolean;
  onCardClick: () => void;
  onCardDoubleClick: () => void;
  onCloseNetwork: () => void;
  onDraftDone: (saved?: PublishButton) => void;
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const alert = (type: 'success' | 'danger', text: string) => showAlert({ type, text, source: 'publishing' });
/** Clicks on the card's own controls are theirs; only clicks on the card itself select or open it. */
const onControl = (event: MouseEvent) =>
  (event.target as HTMLElement).closest(
    'input, textarea, button, a, label, [role="option"], [role="listbox"]',
  );

/**
 * One publishing button (spec3 §2-§4): name, icon, enabled, keep for, where to run, description, status,
 * flags, the simple network choice or network mode, node options and role restrictions, with its
 * per-object save state.
 */
export const ButtonCard = (props: Props) => {
  const { ctx, button, modules, locations } = props;
  const create = useCreatePublishButton(ctx);
  const update = useSavePublishButton(ctx);
  const trash = useTrashPublishButton(ctx);
  const saveRestrictions = useSaveRoleRestrictions();
  const status = usePublishButtonStatus(button?.id);
  const [draftName, setDraftName] = useState(props.draft?.name ?? '');
  const [draftEnabled, setDraftEnabled] = useState(true);
  const [deleting, setDeleting] = useState(false);
  const [iconDialog, setIconDialog] = useState(false);
  /** What network mode last said; null until it speaks (then the network's shape decides). */
  const [stratifiedFlag, setStratifiedFlag] = useState<boolean | null>(null);
  const [shownValid, setShownValid] = useState(true);
  const pendingUpload = useRef<Promise<unknown> | null>(null);
  const name = button?.name ?? draftName;
  const enabled = button?.enabled ?? draftEnabled;
  const named = useRef({ name, enabled });
  named.current = { name, enabled };

  const form = useSaveState<ButtonForm>(button ? formOf(button) : (props.draft?.form as ButtonForm), {
    isNew: !button,
    save: async (value) => {
      const body = bodyOf(named.current.name, named.current.enabled, value);
      const saved = button
        ? await update.mutateAsync({ id: button.id, update: body })
        : await create.mutateAsync(body);
      if (!button || isDirty(value.restrictions, formOf(button).restrictions))
        await saveRestrictions.mutateAsync({ id: saved.id, restrictions: value.restrictions });
      if (!button) props.onDraftDone(saved);
      return formOf(saved);
    },
  });
  const latest = useRef(form);
  latest.current = form;

  // A new button warns before leaving even before it is changed: it exists nowhere else.
  const draftKey = props.draft?.key;
  useEffect(() => {
    if (!draftKey) return;
    markDirty(`publish-draft-${draftKey}`, true);
    return () => markDirty(`publish-draft-${draftKey}`, false);
  }, [draftKey]);

  // Fresh server data shows at once unless the user is editing this button.
  const { reset, value, saved } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new server copy may reset the form
  useEffect(() => {
    if (button && !isDirty(value, saved)) reset(formOf(button));
  }, [button]);

  const simple = simpleNodes(form.value, modules);
  const stratified = stratifiedFlag ?? simple !== null;
  const problems = buttonProblems(form.value, modules);
  const complicated = isComplicated(form.value);
  const network = primaryNetwork(form.value);
  const optionNodes = nodesWithOptions(form.value, modules);
  const [shownNode, setShownNode] = useState<number | null>(null);
  const nodeId =
    shownNode !== null && network.nodes.some((n) => n.nodeLocalId === shownNode)
      ? shownNode
      : (form.value.phases[0]?.phase.primaryNetwork.destinationNode ?? null);
  const node = network.nodes.find((n) => n.nodeLocalId === nodeId);
  const location = locations.find((l) => sameLocation(l, form.value.location));
  const check = locations.length > 0 ? locationCheck(location, form.value, modules) : { status: 'ok' };
  const missing = missingOptions(form.value, modules);
  const valid = !nameError(name) && missing.length === 0 && shownValid;
  const busy = form.saving || deleting;
  const roles = restrictionsFor(props.roles, form.value.restrictions);
  const set = (patch: Partial<ButtonForm>) => form.setValue({ ...form.value, ...patch });

  const save = async () => {
    const creating = !button;
    // spec3 §4: an icon upload in progress defers the save of the button.
    if (pendingUpload.current) {
      await pendingUpload.current.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    try {
      await latest.current.save();
      alert('success', creating ? PUBLISH_MESSAGES.created : PUBLISH_MESSAGES.saved);
    } catch (error) {
      alert('danger', PUBLISH_MESSAGES.buttonFailed(creating ? 'create' : 'save', reasonOf(error)));
    }
  };

  const discard = async () => {
    const confirmed = await confirmDialog({
      title: 'Discard changes',
      message: button
        ? `Discard the unsaved changes of "${name}"?`
        : `Discard the new publishing button "${name}"?`,
      confirmLabel: 'Discard',
      danger: true,
    });
    if (!confirmed) return;
    if (!button) return props.onDraftDone();
    form.discard();
    setStratifiedFlag(null);
  };

  const rename = async (next: string) => {
    if (!button) return void setDraftName(next);
    try {
      await update.mutateAsync({ id: button.id, update: { id: button.id, name: next } });
      alert('success', PUBLISH_MESSAGES.nameSaved);
    } catch (error) {
      alert('danger', PUBLISH_MESSAGES.buttonFailed('save', reasonOf(error)));
      throw error;
    }
  };

  const toggle = async (next: boolean) => {
    if (!button) return setDraftEnabled(next);
    try {
      await update.mutateAsync({ id: button.id, update: { enabled: next } });
      alert('success', next ? PUBLISH_MESSAGES.saved : PUBLISH_MESSAGES.disabled);
    } catch (error) {
      alert('danger', PUBLISH_MESSAGES.buttonFailed(next ? 'save' : 'disable', reasonOf(error)));
    }
  };

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: 'Delete publishing button',
      subtitle: `Delete "${name}"?`,
      message: PUBLISH_MESSAGES.deleteWarning,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    if (!button || form.state === 'new' || form.state === 'creating') return props.onDraftDone();
    setDeleting(true);
    try {
      await trash.mutateAsync(button.id);
      alert('success', PUBLISH_MESSAGES.deleted);
    } catch (error) {
      // spec3 §4: a failed delete clears the deleting flag.
      setDeleting(false);
      alert('danger', PUBLISH_MESSAGES.buttonFailed('delete', reasonOf(error)));
    }
  };

  const uploadIcon = (file: File, onProgress: (fraction: number) => void) => {
    const upload = props.uploadIcon(file, onProgress);
    pendingUpload.current = upload;
    void upload
      .finally(() => {
        if (pendingUpload.current === upload) pendingUpload.current = null;
      })
      .catch(() => undefined);
    return upload;
  };

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label={`Publishing button ${name}`}
      data-testid="publish-button-card"
      data-state={form.state}
      style={{
        gridColumn: props.networkMode ? '1 / -1' : undefined,
        opacity: deleting ? 0.6 : undefined,
        borderColor: props.networkMode || props.selected ? 'var(--mantine-primary-color-filled)' : undefined,
        borderWidth: props.networkMode || props.selected ? 2 : undefined,
      }}
      onClick={(event: MouseEvent) => !onControl(event) && props.onCardClick()}
      onDoubleClick={(event: MouseEvent) => !onControl(event) && props.onCardDoubleClick()}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {button && (
              <Checkbox
                aria-label={`Select ${name}`}
                checked={props.selected}
                onChange={(event) => props.onSelectedChange(event.currentTarget.checked)}
              />
            )}
            <ButtonIcon iconId={form.value.iconId} />
            <ClickToEdit
              value={name}
              label="publishing button name"
              maxLength={100}
              validate={nameError}
              onSubmit={rename}
            />
            <Badge
              variant="light"
              color={form.state === 'clean' ? 'teal' : 'blue'}
              aria-label={`State ${form.state}`}
            >
              {form.state}
            </Badge>
            {complicated && (
              <Badge color="orange" variant="light">
                Complicated
              </Badge>
            )}
            {problems.length > 0 && (
              <Badge color="red" variant="light">
                Bad network
              </Badge>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Switch
              label="Enabled"
              checked={enabled}
              disabled={busy || update.isPending}
              onChange={(event) => void toggle(event.currentTarget.checked)}
            />
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Delete ${name}`}
              loading={deleting}
              disabled={busy && !deleting}
              onClick={() => void remove()}
            >
              Delete
            </Button>
          </Group>
        </Group>
        {button && (
          <Text size="sm" c="dimmed" data-testid="publish-status">
            {status.data ? `${status.data.numberOfPublishedItems} published items` : 'Published items: …'}
          </Text>
        )}
        <SettingsFields
          keepFor={form.value.keepFor}
          location={form.value.location}
          iconId={form.value.iconId}
          locations={locations}
          icons={props.icons}
          locationProblem={check.status === 'ok' ? undefined : (check as { message: string }).message}
          disabled={busy}
          onKeepFor={(keepFor) => set({ keepFor })}
          onLocation={(next) => set({ location: next })}
          onIcon={(iconId) => set({ iconId })}
          onUploadIcon={() => setIconDialog(true)}
        />
        <Textarea
          label="Description"
          autosize
          minRows={1}
          maxLength={2000}
          value={form.value.description}
          disabled={busy}
          onChange={(event) => set({ description: event.currentTarget.value })}
        />
        {stratified && simple && !complicated ? (
          <SimpleNetworkFields
            modules={modules}
            processModuleId={simple.process.moduleId}
            destinationModuleId={simple.destination.moduleId}
            disabled={busy}
            onProcess={(id) =>
              form.setValue(withNodeModule(form.value, simple.process.nodeLocalId, id, modules))
            }
            onDestination={(id) =>
              form.setValue(withNodeModule(form.value, simple.destination.nodeLocalId, id, modules))
            }
          />
        ) : (
          <Text size="sm" c="dimmed" data-testid="edited-in-network-mode">
            Edited in network mode
          </Text>
        )}
        {!props.networkMode && (
          <Group>
            <Button size="xs" variant="light" onClick={props.onCardDoubleClick}>
              Network mode
            </Button>
          </Group>
        )}
        {props.networkMode && (
          <NetworkPanel
            name={name}
            network={network}
            modules={modules}
            problems={problems}
            stratified={stratified}
            readOnly={busy}
            onChange={(next, info) => {
              form.setValue(withNetwork(form.value, next, modules));
              setStratifiedFlag(info.stratified);
            }}
            onSelectNode={(id) => id !== null && setShownNode(id)}
            onClose={props.onCloseNetwork}
          />
        )}
        {problems.length > 0 && !props.networkMode && (
          <Alert color="red" p="xs" title="Problems" data-testid="button-problems">
            <List size="sm">
              {problems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {optionNodes.length > 1 && (
          <Select
            label="Options of"
            allowDeselect={false}
            data={optionNodes.map((n) => ({
              value: String(n.nodeLocalId),
              label: modules.find((m) => m.id === n.moduleId)?.name ?? PUBLISH_MESSAGES.unknownModule,
            }))}
            value={nodeId === null ? null : String(nodeId)}
            onChange={(next) => next && setShownNode(Number(next))}
          />
        )}
        {node && (
          <NodeOptions
            key={`${node.nodeLocalId}-${node.moduleId}`}
            module={modules.find((m) => m.id === node.moduleId)}
            options={node.options}
            disabled={busy}
            onChange={(options, optionsValid) => {
              setShownValid(optionsValid);
              form.setValue(withNodeOptions(latest.current.value, node.nodeLocalId, options, modules));
            }}
          />
        )}
        {missing.length > 0 && (
          <Text size="xs" c="red" data-testid="missing-options">
            Required: {missing.join(', ')}
          </Text>
        )}
        <RoleRestrictionsField
          restrictions={roles}
          disabled={busy}
          onChange={(restrictions) => set({ restrictions })}
        />
        <FormButtons
          state={form.state}
          dirty={form.dirty || form.state === 'new' || form.state === 'creating'}
          valid={valid}
          onSave={() => void save()}
          onDiscard={() => void discard()}
        />
      </Stack>
      <IconUploadDialog
        opened={iconDialog}
        onClose={() => setIconDialog(false)}
        upload={uploadIcon}
        onUploaded={(icon) => latest.current.setValue({ ...latest.current.value, iconId: icon.id })}
      />
    </Paper>
  );
};
