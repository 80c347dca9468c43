import {
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  ARRIVALS_MESSAGES,
  type ArrivalsAssignment,
  type ArrivalsFolder,
  type ArrivalsFolderType,
  EDGE_LINKS,
  EDGE_MESSAGES,
  type Endpoint,
  isDirty,
} from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  useCreateArrivalsFolder,
  useTrashArrivalsFolder,
  useUpdateArrivalsFolder,
} from '../../api/arrivals.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { ClickToEdit } from '../../ui/ClickToEdit.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { FolderEndpoints } from './FolderEndpoints.tsx';
import { FolderOptions } from './FolderOptions.tsx';
import { defaultOptions, type FolderForm, folderFormErrors, optionsOfType } from './folder-form.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const folderElementId = (id: number | string) => `arrivals-folder-${id}`;

/** The form of a saved folder: an option it has never set shows its type's default. */
const formOf = (folder: ArrivalsFolder, types: ArrivalsFolderType[]): FolderForm => ({
  typeId: folder.typeId,
  priority: folder.priority,
  options: { ...defaultOptions(types.find((t) => t.id === folder.typeId)), ...folder.options },
});

const STATE_COLORS: Record<string, string> = {
  new: 'blue',
  creating: 'blue',
  saving: 'blue',
  uninitialised: 'yellow',
  clean: 'teal',
};

type Props = {
  accountId: number;
  /** The saved folder, or null for a new one not yet created. */
  folder: ArrivalsFolder | null;
  draftKey?: string;
  types: ArrivalsFolderType[];
  endpoints: Endpoint[];
  assignments: ArrivalsAssignment[];
  selected: boolean;
  onSelect: () => void;
  /** A new folder was created (or discarded): its draft goes. */
  onDraftDone: (saved?: ArrivalsFolder) => void;
};

/**
 * One arrivals folder: its local state (new, creating, uninitialised, clean), rename, type, priority,
 * options, its endpoints and a link to its ingest queue. A new folder lives only here until it is created.
 */
export const ArrivalsFolderCard = (props: Props) => {
  const { accountId, folder, types } = props;
  const create = useCreateArrivalsFolder(accountId);
  const update = useUpdateArrivalsFolder(accountId);
  const trash = useTrashArrivalsFolder(accountId);
  const [deleting, setDeleting] = useState(false);
  const [draftName, setDraftName] = useState<string>(ARRIVALS_MESSAGES.defaultName);
  const name = folder?.name ?? draftName;
  const firstType = types[0];

  const form = useSaveState<FolderForm>(
    folder
      ? formOf(folder, types)
      : { typeId: firstType?.id ?? '', priority: 0, options: defaultOptions(firstType) },
    {
      isNew: !folder,
      save: async (value) => {
        const type = types.find((t) => t.id === value.typeId);
        const body = { typeId: value.typeId, priority: value.priority, options: optionsOfType(value, type) };
        const saved = folder
          ? await update.mutateAsync({ id: folder.id, name: folder.name, ...body })
          : await create.mutateAsync({ name: draftName.trim(), ...body });
        if (!folder) props.onDraftDone(saved);
        return formOf(saved, types);
      },
    },
  );

  // Fresh server data shows at once unless the user is editing this folder.
  const { reset, value, saved } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new server copy may reset the form
  useEffect(() => {
    if (folder && !isDirty(value, saved)) reset(formOf(folder, types));
  }, [folder]);

  const type = types.find((t) => t.id === form.value.typeId);
  const errors = folderFormErrors(form.value, type, name);
  const valid = Object.keys(errors).length === 0;
  // A saved folder whose type is unknown here has yet to be set up.
  const state =
    form.state === 'clean' && folder && types.length > 0 && !types.some((t) => t.id === folder.typeId)
      ? 'uninitialised'
      : form.state;
  const busy = form.saving || deleting;

  const save = async () => {
    try {
      await form.save();
      showAlert({ type: 'success', text: ARRIVALS_MESSAGES.saved(name), source: 'arrivals' });
    } catch (error) {
      showAlert({
        type: 'danger',
        text: ARRIVALS_MESSAGES.saveFailed(name, errorText(error)),
        source: 'arrivals',
      });
    }
  };

  // Click-to-edit may submit twice (Enter, then the blur as the input goes); one rename is enough.
  const renaming = useRef<string | null>(null);
  const rename = async (next: string) => {
    if (!folder || renaming.current === next) return;
    renaming.current = next;
    try {
      await update.mutateAsync({ id: folder.id, name: next });
      showAlert({ type: 'success', text: ARRIVALS_MESSAGES.saved(next), source: 'arrivals' });
    } catch (error) {
      showAlert({
        type: 'danger',
        text: ARRIVALS_MESSAGES.saveFailed(next, errorText(error)),
        source: 'arrivals',
      });
      throw error;
    } finally {
      renaming.current = null;
    }
  };

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: 'Delete arrivals folder',
      message: `Delete the arrivals folder "${name}"? Its endpoints are left without a folder.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    // A folder that is new or still being created exists only here.
    if (!folder || form.state === 'new' || form.state === 'creating') return props.onDraftDone();
    setDeleting(true);
    try {
      await trash.mutateAsync(folder.id);
    } catch (error) {
      setDeleting(false);
      showAlert({
        type: 'danger',
        text: `Unable to delete ${name} - ${errorText(error)}`,
        source: 'arrivals',
      });
    }
  };

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      id={folderElementId(folder?.id ?? props.draftKey ?? 'new')}
      aria-label={`Arrivals folder ${name}`}
      data-testid="arrivals-folder"
      data-selected={props.selected || undefined}
      style={{
        scrollMarginTop: 72,
        borderColor: props.selected ? 'var(--mantine-primary-color-filled)' : undefined,
        borderWidth: props.selected ? 2 : undefined,
        opacity: deleting ? 0.6 : undefined,
      }}
      onFocusCapture={props.onSelect}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {folder ? (
              <ClickToEdit value={folder.name} label="folder name" maxLength={100} onSubmit={rename} />
            ) : (
              <TextInput
                label="Name"
                required
                w={280}
                value={draftName}
                error={errors.name}
                disabled={busy}
                onChange={(e) => setDraftName(e.currentTarget.value)}
              />
            )}
            <Badge variant="light" color={STATE_COLORS[state] ?? 'gray'} aria-label={`State ${state}`}>
              {state}
            </Badge>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {folder && (
              <Anchor component={Link} to={EDGE_LINKS.arrivalsIngestQueue(accountId, folder.id)} size="sm">
                Ingest queue
              </Anchor>
            )}
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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Type"
            required
            placeholder={EDGE_MESSAGES.selectPlaceholder}
            data={types.map((t) => ({ value: t.id, label: t.name }))}
            value={form.value.typeId || null}
            error={errors.typeId}
            disabled={busy}
            allowDeselect={false}
            description={type?.description}
            onChange={(next) => {
              const nextType = types.find((t) => t.id === next);
              if (next) form.setValue({ ...form.value, typeId: next, options: defaultOptions(nextType) });
            }}
          />
          <NumberInput
            label="Priority"
            description="Higher priorities ingest first"
            min={-1000}
            max={1000}
            allowDecimal={false}
            disabled={busy}
            value={form.value.priority}
            onChange={(next) => form.setValue({ ...form.value, priority: next === '' ? 0 : Number(next) })}
          />
        </SimpleGrid>
        <FolderOptions
          type={type}
          values={form.value.options}
          errors={errors}
          disabled={busy}
          onChange={(option, next) =>
            form.setValue({ ...form.value, options: { ...form.value.options, [option]: next } })
          }
        />
        <FormButtons
          state={form.state}
          dirty={form.dirty || form.state === 'new'}
          valid={valid}
          onSave={() => void save()}
          onDiscard={() => (folder ? form.discard() : props.onDraftDone())}
        />
        <Divider label="Endpoints" labelPosition="left" />
        {folder ? (
          <FolderEndpoints
            accountId={accountId}
            folder={folder}
            endpoints={props.endpoints}
            assignments={props.assignments}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Create the folder to assign endpoints to it.
          </Text>
        )}
      </Stack>
    </Paper>
  );
};
