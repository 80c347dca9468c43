import { Anchor, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  EDGE_LINKS,
  EDGE_MESSAGES,
  EDGE_NAME_MAX,
  type EdgeContext,
  type EdgeServer,
  formatDateTime,
  isDirty,
} from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSaveEdgeServer, useTrashEdgeServer } from '../../api/edge.ts';
import { ClickToEdit } from '../../ui/ClickToEdit.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { notify } from '../../ui/notify.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { AgentTokenNotice } from './AgentTokenNotice.tsx';
import { EdgeActions } from './EdgeActions.tsx';
import { type EdgeSettings, EdgeSettingsFields } from './EdgeSettingsFields.tsx';
import { EditCard } from './EditCard.tsx';
import { reasonOf } from './edge-page.ts';

const settingsOf = (edge: EdgeServer): EdgeSettings => ({
  siteId: edge.siteId,
  advancedOptions: edge.advancedOptions,
});

const lastSeenText = (edge: EdgeServer) =>
  edge.lastSeen ? `Last seen ${formatDateTime(new Date(edge.lastSeen))}` : 'Never seen';

/** Connected (the agent called in within the last minute), or when it was last seen. */
export const ConnectionBadge = ({ edge }: { edge: EdgeServer }) => {
  const seen = lastSeenText(edge);
  return (
    <Tooltip label={seen} openDelay={300}>
      <Badge color={edge.connected ? 'teal' : 'gray'} variant="light" tabIndex={0}>
        {edge.connected ? 'Connected' : 'Not connected'}
      </Badge>
    </Tooltip>
  );
};

/** spec2 §5: a rename to more than 60 characters fails with 'Name too long'. */
const renameError = (name: string) => (name.length > EDGE_NAME_MAX ? EDGE_MESSAGES.nameTooLong : undefined);

/** A saved edge server's card: rename, site and advanced options edited in place, actions, links, delete. */
export const EdgeCard = (props: {
  edge: EdgeServer;
  context: EdgeContext;
  selected: boolean;
  onSelect: () => void;
  agentToken?: string;
  onTokenSeen: () => void;
}) => {
  const { edge, context } = props;
  const saveEdge = useSaveEdgeServer();
  const trash = useTrashEdgeServer();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const form = useSaveState(settingsOf(edge), {
    save: async (settings) =>
      settingsOf(await saveEdge.mutateAsync({ id: edge.id, name: edge.name, type: edge.type, ...settings })),
  });

  // A change from elsewhere (live update) replaces the values unless this card holds unsaved ones.
  const serverSettings = JSON.stringify(settingsOf(edge));
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the server's values counts
  useEffect(() => {
    if (!isDirty(form.value, form.saved) && form.state === 'clean')
      form.reset(JSON.parse(serverSettings) as EdgeSettings);
  }, [serverSettings]);

  /** The rename in flight: the input's blur while it saves must not send it a second time. */
  const renaming = useRef<{ name: string; done: Promise<void> }>(undefined);
  const rename = (name: string) => {
    if (renaming.current?.name === name) return renaming.current.done;
    const error = renameError(name);
    if (error) {
      notify({ type: 'danger', text: error });
      return Promise.reject(new Error(error));
    }
    const done = saveEdge.mutateAsync({ id: edge.id, name }).then(
      (saved) => {
        notify({ type: 'success', text: EDGE_MESSAGES.edgeSaved(saved.name) });
      },
      (failure: unknown) => {
        notify({ type: 'danger', text: reasonOf(failure) });
        throw failure;
      },
    );
    renaming.current = { name, done };
    void done
      .finally(() => {
        if (renaming.current?.done === done) renaming.current = undefined;
      })
      .catch(() => undefined);
    return done;
  };

  const save = async () => {
    try {
      await form.save();
      notify({ type: 'success', text: EDGE_MESSAGES.edgeSaved(edge.name) });
    } catch (error) {
      notify({ type: 'danger', text: EDGE_MESSAGES.edgeSaveFailed(reasonOf(error)) });
    }
  };

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: 'Delete edge server',
      message: `Delete the edge server "${edge.name}"? Its services and endpoints go with it.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await trash.mutateAsync(edge.id);
      notify({ type: 'success', text: EDGE_MESSAGES.edgeDeleted });
    } catch (error) {
      notify({ type: 'danger', text: EDGE_MESSAGES.edgeDeleteFailed(reasonOf(error)) });
    }
  };

  return (
    <EditCard
      domId={`edge-${edge.id}`}
      label={`Edge server ${edge.name}`}
      selected={props.selected}
      onSelect={props.onSelect}
      dirty={form.dirty}
      header={
        <>
          <ClickToEdit value={edge.name} label="Edge server name" onSubmit={rename} />
          <ConnectionBadge edge={edge} />
          {edge.type !== 'server' && (
            <Badge variant="outline" color="gray">
              {edge.type}
            </Badge>
          )}
        </>
      }
      headerRight={
        <Button size="xs" color="red" variant="light" onClick={() => void remove()} loading={trash.isPending}>
          Delete
        </Button>
      }
    >
      {props.agentToken && <AgentTokenNotice token={props.agentToken} onDismiss={props.onTokenSeen} />}
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Owner {edge.userName} · {edge.siteName ? `Site ${edge.siteName}` : 'No site'} · {lastSeenText(edge)}
        </Text>
        <EdgeSettingsFields
          value={form.value}
          onChange={form.setValue}
          advancedOpen={advancedOpen}
          onToggleAdvanced={() => setAdvancedOpen((open) => !open)}
          currentSite={edge.siteId && edge.siteName ? { id: edge.siteId, name: edge.siteName } : undefined}
        />
        <FormButtons
          state={form.state}
          dirty={form.dirty}
          onSave={() => void save()}
          onDiscard={form.discard}
        />
        <EdgeActions edge={edge} />
        <Group gap="md">
          <Anchor component={Link} to={EDGE_LINKS.services(edge.id, context)} size="sm">
            Services ({edge.serviceCount})
          </Anchor>
          <Anchor component={Link} to={EDGE_LINKS.edgeIngestQueue(edge.id, context)} size="sm">
            Ingest queue
          </Anchor>
          <Anchor component={Link} to={EDGE_LINKS.unprocessedFiles(edge.id, context)} size="sm">
            Unprocessed files
          </Anchor>
        </Group>
      </Stack>
    </EditCard>
  );
};
