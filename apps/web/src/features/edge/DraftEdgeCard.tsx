import { Badge, Stack, TextInput } from '@mantine/core';
import { DEFAULT_EDGE_ADVANCED_OPTIONS, EDGE_NAME_MAX, edgeNameSchema } from '@media/contract';
import { useState } from 'react';
import { type EdgeServerCreated, useCreateEdgeServer } from '../../api/edge.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { notify } from '../../ui/notify.tsx';
import { useSaveState } from '../../ui/useSaveState.ts';
import { type EdgeSettings, EdgeSettingsFields } from './EdgeSettingsFields.tsx';
import { EditCard } from './EditCard.tsx';
import { reasonOf } from './edge-page.ts';

type Draft = EdgeSettings & { name: string };

/** A new edge server not yet created: it carries a temporary id and goes once created or discarded. */
export const DraftEdgeCard = (props: {
  temporaryId: string;
  userId: number;
  type: string;
  siteId: number | null;
  selected: boolean;
  onSelect: () => void;
  onDiscard: () => void;
  onCreated: (edge: EdgeServerCreated) => void;
}) => {
  const create = useCreateEdgeServer(props.userId);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const form = useSaveState<Draft>(
    { name: '', siteId: props.siteId, advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS },
    {
      isNew: true,
      save: async (draft) => {
        const created = await create.mutateAsync({ ...draft, name: draft.name.trim(), type: props.type });
        props.onCreated(created);
        return draft;
      },
    },
  );
  const nameCheck = edgeNameSchema.safeParse(form.value.name);
  const nameError =
    form.value.name !== '' && !nameCheck.success ? nameCheck.error.issues[0]?.message : undefined;

  const submit = async () => {
    try {
      await form.save();
    } catch (error) {
      // spec2 §8: a failed create is a danger notification with the error's message.
      notify({ type: 'danger', text: reasonOf(error) });
    }
  };

  return (
    <EditCard
      domId={`edge-${props.temporaryId}`}
      label="New edge server"
      selected={props.selected}
      onSelect={props.onSelect}
      dirty={form.dirty}
      header={
        <Badge color="blue" variant="light">
          New edge server
        </Badge>
      }
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          autoFocus
          value={form.value.name}
          error={nameError}
          description={`At most ${EDGE_NAME_MAX} characters`}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && nameCheck.success) void submit();
          }}
          onChange={(e) => form.setValue({ ...form.value, name: e.currentTarget.value })}
        />
        <EdgeSettingsFields
          value={form.value}
          onChange={(settings) => form.setValue({ ...form.value, ...settings })}
          advancedOpen={advancedOpen}
          onToggleAdvanced={() => setAdvancedOpen((open) => !open)}
        />
        <FormButtons
          state={form.state}
          dirty
          valid={nameCheck.success}
          onSave={() => void submit()}
          onDiscard={props.onDiscard}
        />
      </Stack>
    </EditCard>
  );
};
