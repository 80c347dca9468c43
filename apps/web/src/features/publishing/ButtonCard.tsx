import { Alert, Button, Group, List, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
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
  type ServerFormAction,
} from '@media/contract';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import {
  type PublishContext,
  useCreatePublishButton,
  useModuleAction,
  usePublishButtonStatus,
  useSavePublishButton,
  useSaveRoleRestrictions,
} from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { markDirty } from '../../ui/unsaved-changes.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { ButtonCardHeader } from './ButtonCardHeader.tsx';
import { RoleRestrictionsField, SettingsFields, SimpleNetworkFields, sameLocation } from './ButtonFields.tsx';
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
import { PublishedItems } from './PublishedItems.tsx';
import { useButtonActions } from './useButtonActions.ts';

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
  /** A site's button listed on an account page (includeAll): shown, not changed here. */
  readOnly?: boolean;
  /** A button of the site on an account's page (read-only there). */
  siteButton?: boolean;
  /** Managers see the number of published items (the status call is theirs). */
  showStatus?: boolean;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  networkMode: boolean;
  onCardClick: () => void;
  onCardDoubleClick: () => void;
  onCloseNetwork: () => void;
  /** A new button was created (its id) or discarded: its draft goes. */
  onDraftDone: (createdId?: number) => void;
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
  const saveRestrictions = useSaveRoleRestrictions();
  const moduleAction = useModuleAction(ctx);
  const status = usePublishButtonStatus(props.showStatus ? button?.id : undefined);
  const [draftName, setDraftName] = useState(props.draft?.name ?? '');
  const [draftEnabled, setDraftEnabled] = useState(true);
  const [iconDialog, setIconDialog] = useState(false);
  /** What network mode last said; null until it speaks (then the network's shape decides). */
  const [stratifiedFlag, setStratifiedFlag] = useState<boolean | null>(null);
  const pendingUpload = useRef<Promise<unknown> | null>(null);
  const name = button?.name ?? draftName;
  const enabled = button?.enabled ?? draftEnabled;
  const { rename, toggle, remove, deleting, pendingEnabled, toggling } = useButtonActions({
    ctx,
    button,
    name,
    isDraft: () => !button || latest.current.state === 'new' || latest.current.state === 'creating',
    onDraftRename: setDraftName,
    onDraftToggle: setDraftEnabled,
    onDraftDone: () => props.onDraftDone(),
  });
  const named = useRef({ name, enabled });
  named.current = { name, enabled };

  const form = useSaveState<ButtonForm>(button ? formOf(button) : (props.draft?.form as ButtonForm), {
    isNew: !button,
    save: async (value) => {
      const body = bodyOf(named.current.name, named.current.enabled, value);
      if (!button) {
        // spec3 §4: the new button becomes saved when created, its id set from the answer.
        const { id } = await create.mutateAsync(body);
        await saveRestrictions.mutateAsync({ id, restrictions: value.restrictions });
        props.onDraftDone(id);
        return value;
      }
      const saved = await update.mutateAsync({ id: button.id, update: body });
      if (isDirty(value.restrictions, formOf(button).restrictions))
        await saveRestrictions.mutateAsync({ id: saved.id, restrictions: value.restrictions });
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
  const valid = !nameError(name) && missing.length === 0;
  const busy = form.saving || deleting || props.readOnly === true;
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
        <ButtonCardHeader
          name={name}
          iconId={form.value.iconId}
          state={form.state}
          dirty={form.dirty}
          enabled={pendingEnabled ?? enabled}
          readOnly={props.readOnly === true}
          siteButton={props.siteButton === true}
          complicated={complicated}
          bad={problems.length > 0}
          status={
            button && props.showStatus
              ? status.data
                ? `${status.data.numberOfPublishedItems} published items`
                : status.isError
                  ? // A count that could not be read is not waited for.
                    undefined
                  : 'Published items: …'
              : undefined
          }
          selectable={Boolean(button) && !props.readOnly}
          selected={props.selected}
          busy={busy}
          deleting={deleting}
          toggling={toggling}
          onSelectedChange={props.onSelectedChange}
          onRename={rename}
          onToggle={(next) => void toggle(next)}
          // The failure is already shown as an alert; the card stays as it was.
          onDelete={() => void remove().catch(() => undefined)}
        />
        {button && props.showStatus && <PublishedItems buttonId={button.id} buttonName={button.name} />}
        {form.value.phases.length === 0 && (
          <Alert color="red" p="xs" role="alert">
            {PUBLISH_MESSAGES.configurationUnreadable}
          </Alert>
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
            onChange={(options) =>
              form.setValue(withNodeOptions(latest.current.value, node.nodeLocalId, options, modules))
            }
            onAction={(moduleId, action, options) =>
              moduleAction.mutateAsync({ moduleId, action, options }) as Promise<ServerFormAction>
            }
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
        {!props.readOnly && (
          <FormButtons
            state={form.state}
            dirty={form.dirty || form.state === 'new' || form.state === 'creating'}
            valid={valid}
            onSave={() => void save()}
            onDiscard={() => void discard()}
          />
        )}
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
