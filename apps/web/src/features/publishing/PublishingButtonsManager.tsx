import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  NETWORK_DOUBLE_CLICK_MS,
  newButtonBody,
  PUBLISH_MESSAGES,
  type PublishButton,
} from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { useAccountRoles } from '../../api/accounts.ts';
import { useLiveRefresh } from '../../api/live.ts';
import {
  type PublishContext,
  publishingKey,
  usePublishButtons,
  usePublishIcons,
  usePublishLocations,
  usePublishModules,
  useSavePublishButton,
  useUploadPublishIcon,
} from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { AddButtonDialog, type NewButtonChoice } from './AddButtonDialog.tsx';
import { ButtonCard, type Draft } from './ButtonCard.tsx';
import { bodyOf, byName, formOf, restrictionsFor } from './button-form.ts';
import { type MultiChange, MultiEditBar } from './MultiEditBar.tsx';
import { RecycleBin } from './RecycleBin.tsx';

let draftSequence = 0;
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The publishing buttons manager (spec3 §2) of an account or a site. */
export const PublishingButtonsManager = ({
  ctx,
  siteId,
  canManage,
}: {
  ctx: PublishContext;
  siteId: number;
  /** Account users see the buttons they may use, read-only; managers change them. */
  canManage: boolean;
}) => {
  const buttons = usePublishButtons(ctx);
  /** A site's button on an account's page: shown, not the account's to change. */
  const isSiteButtonHere = (button: PublishButton) => ctx.scope === 'accounts' && button.accountId === null;
  const modules = usePublishModules(ctx);
  const locations = usePublishLocations(ctx);
  const icons = usePublishIcons(ctx);
  const roles = useAccountRoles(siteId);
  const uploadIcon = useUploadPublishIcon(ctx);
  const update = useSavePublishButton(ctx);
  useLiveRefresh(buttons.data?.channel || undefined, publishingKey(ctx));
  useLiveRefresh(icons.data?.channel || undefined, publishingKey(ctx));
  // A button's status and role restrictions are its own queries; a change of the list refreshes them too.
  useLiveRefresh(buttons.data?.channel || undefined, ['publishButton']);

  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [multiSaving, setMultiSaving] = useState(false);
  /** The card in network mode: a button id, or a draft's key. */
  const [networkKey, setNetworkKey] = useState<string | null>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(clickTimer.current), []);

  const failure = [buttons, modules].find((query) => query.isError)?.error;
  const fetchError = failure
    ? PUBLISH_MESSAGES.fetchFailed(PUBLISH_MESSAGES.defaultActivity, failure.message)
    : null;
  useEffect(() => {
    if (fetchError) showAlert({ type: 'danger', text: fetchError, source: 'publishing' });
  }, [fetchError]);

  if (fetchError)
    return (
      <Alert color="red" role="alert">
        {fetchError}
      </Alert>
    );
  if (buttons.isPending || modules.isPending) return <Loader aria-label="Loading" />;
  const moduleList = modules.data ?? [];
  const list = byName(buttons.data?.results ?? []);
  const siteRoles = roles.data ?? [];

  const addButton = (choice: NewButtonChoice) => {
    const body = newButtonBody({ name: 'New publishing button', ...choice }, moduleList);
    const key = `new-${++draftSequence}`;
    const { name: _name, enabled: _enabled, ...form } = body;
    setDrafts((current) => [
      ...current,
      { key, name: body.name, form: { ...form, restrictions: restrictionsFor(siteRoles, []) } },
    ]);
    setAdding(false);
  };

  // spec3 §2: in network mode a single click acts after 500 ms, so that a double-click is not taken for it.
  const cardClick = (key: string) => {
    if (networkKey === null || networkKey === key) return;
    clearTimeout(clickTimer.current);
    clickTimer.current = setTimeout(() => setNetworkKey(key), NETWORK_DOUBLE_CLICK_MS);
  };
  const cardDoubleClick = (key: string) => {
    clearTimeout(clickTimer.current);
    setNetworkKey(key);
  };

  const saveSelected = async (change: MultiChange) => {
    const chosen = list.filter((button) => selected.has(button.id));
    setMultiSaving(true);
    try {
      await Promise.all(
        chosen.map((button: PublishButton) =>
          update.mutateAsync({
            id: button.id,
            update: bodyOf(button.name, change.enabled ?? button.enabled, {
              ...formOf(button),
              ...(change.keepFor !== undefined && { keepFor: change.keepFor }),
              ...(change.location && { location: change.location }),
            }),
          }),
        ),
      );
      showAlert({
        type: 'success',
        text: PUBLISH_MESSAGES.buttonsSaved(chosen.length),
        source: 'publishing',
      });
      setSelected(new Set());
    } catch (error) {
      showAlert({
        type: 'danger',
        text: PUBLISH_MESSAGES.buttonFailed('save', reasonOf(error)),
        source: 'publishing',
      });
    } finally {
      setMultiSaving(false);
    }
  };

  const cardProps = (key: string) => ({
    ctx,
    modules: moduleList,
    locations: locations.data ?? [],
    icons: icons.data?.results ?? [],
    roles: siteRoles,
    uploadIcon,
    networkMode: networkKey === key,
    onCardClick: () => cardClick(key),
    onCardDoubleClick: () => cardDoubleClick(key),
    onCloseNetwork: () => setNetworkKey(null),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          A publishing button sends media through a network of modules to a destination. Double-click a card
          to edit its network.
        </Text>
        {canManage && (
          <Group gap="xs">
            <RecycleBin ctx={ctx} />
            <Button onClick={() => setAdding(true)}>{PUBLISH_MESSAGES.addTitle}</Button>
          </Group>
        )}
      </Group>
      {!canManage && (
        <Alert color="blue" data-testid="publishing-read-only">
          These are the publishing buttons you may use. Only the account's managers change them.
        </Alert>
      )}
      {(locations.isError || icons.isError || roles.isError) && (
        <Alert color="yellow">
          {PUBLISH_MESSAGES.fetchFailed(
            PUBLISH_MESSAGES.defaultActivity,
            (locations.error ?? icons.error ?? roles.error)?.message ?? '',
          )}
        </Alert>
      )}
      {selected.size > 0 && (
        <MultiEditBar
          count={selected.size}
          locations={locations.data ?? []}
          saving={multiSaving}
          onSave={(change) => void saveSelected(change)}
          onClear={() => setSelected(new Set())}
        />
      )}
      {list.length === 0 && drafts.length === 0 && (
        <Stack align="center" py="xl" gap="sm" data-testid="publishing-empty">
          <Text c="dimmed">No publishing buttons yet</Text>
          {canManage && (
            <Button variant="light" onClick={() => setAdding(true)}>
              Add
            </Button>
          )}
        </Stack>
      )}
      {/* Dense flow: the card in network mode spans the row without leaving a hole before it. */}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" style={{ gridAutoFlow: 'row dense' }}>
        {drafts.map((draft) => (
          <ButtonCard
            key={draft.key}
            {...cardProps(draft.key)}
            button={null}
            draft={draft}
            selected={false}
            onSelectedChange={() => undefined}
            onDraftDone={(createdId) => {
              setDrafts((current) => current.filter((d) => d.key !== draft.key));
              if (networkKey === draft.key) setNetworkKey(createdId ? String(createdId) : null);
            }}
          />
        ))}
        {list.map((button) => (
          <ButtonCard
            key={button.id}
            {...cardProps(String(button.id))}
            button={button}
            readOnly={!canManage || isSiteButtonHere(button)}
            siteButton={isSiteButtonHere(button)}
            // A site button's published items are its site managers' to count, not an account's.
            showStatus={canManage && !isSiteButtonHere(button)}
            selected={selected.has(button.id)}
            onSelectedChange={(on) =>
              setSelected((current) => {
                const next = new Set(current);
                if (on) next.add(button.id);
                else next.delete(button.id);
                return next;
              })
            }
            onDraftDone={() => undefined}
          />
        ))}
      </SimpleGrid>
      <AddButtonDialog
        opened={adding}
        modules={moduleList}
        onClose={() => setAdding(false)}
        onCreate={addButton}
      />
    </Stack>
  );
};
