import { Button, Group, Paper, Select, Text } from '@mantine/core';
import type { PublishLocation, PublishLocationRef } from '@media/contract';
import { PUBLISH_MESSAGES } from '@media/contract';
import { useState } from 'react';
import { keepForOf, keepForSelectData, locationOf, locationSelectData } from './ButtonFields.tsx';

/** A change made to every selected button; a field left unset is not changed. */
export type MultiChange = { enabled?: boolean; keepFor?: number | null; location?: PublishLocationRef };

const UNCHANGED = 'unchanged';

/** Multi-select editing (spec3 §2): enabled, keep for and where to run for every selected button at once. */
export const MultiEditBar = (props: {
  count: number;
  locations: readonly PublishLocation[];
  saving: boolean;
  onSave: (change: MultiChange) => void;
  onClear: () => void;
}) => {
  const [enabled, setEnabled] = useState(UNCHANGED);
  const [keepFor, setKeepFor] = useState(UNCHANGED);
  const [location, setLocation] = useState(UNCHANGED);
  const keep = { value: UNCHANGED, label: '(unchanged)' };
  const change: MultiChange = {
    ...(enabled !== UNCHANGED && { enabled: enabled === 'enabled' }),
    ...(keepFor !== UNCHANGED && { keepFor: keepForOf(keepFor) }),
    ...(location !== UNCHANGED && { location: locationOf(location) }),
  };
  return (
    <Paper withBorder p="sm" data-testid="multi-edit" aria-label="Edit the selected buttons">
      <Group align="flex-end" gap="sm">
        <Text size="sm" fw={600}>
          {props.count} selected
        </Text>
        <Select
          label="Enabled"
          w={150}
          allowDeselect={false}
          data={[keep, { value: 'enabled', label: 'Enabled' }, { value: 'disabled', label: 'Disabled' }]}
          value={enabled}
          onChange={(value) => setEnabled(value ?? UNCHANGED)}
        />
        <Select
          label="Keep for"
          w={150}
          allowDeselect={false}
          data={[keep, ...keepForSelectData]}
          value={keepFor}
          onChange={(value) => setKeepFor(value ?? UNCHANGED)}
        />
        <Select
          label={PUBLISH_MESSAGES.whereToRun}
          w={200}
          allowDeselect={false}
          data={[keep, ...locationSelectData(props.locations)]}
          value={location}
          onChange={(value) => setLocation(value ?? UNCHANGED)}
        />
        <Button
          onClick={() => props.onSave(change)}
          loading={props.saving}
          disabled={Object.keys(change).length === 0}
        >
          Save
        </Button>
        <Button variant="default" onClick={props.onClear} disabled={props.saving}>
          Clear selection
        </Button>
      </Group>
    </Paper>
  );
};
