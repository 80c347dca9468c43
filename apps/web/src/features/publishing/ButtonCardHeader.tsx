import { Badge, Button, Checkbox, Group, Stack, Switch, Text } from '@mantine/core';
import type { SaveState } from '@media/contract';
import { ClickToEdit } from '../../ui/ClickToEdit.tsx';
import { ButtonIcon } from './ButtonIcon.tsx';
import { nameError } from './button-form.ts';

type Props = {
  name: string;
  iconId: number | null;
  state: SaveState;
  dirty: boolean;
  enabled: boolean;
  readOnly: boolean;
  /** A button of the site, shown on an account's page. */
  siteButton: boolean;
  complicated: boolean;
  bad: boolean;
  /** Shown for a saved button: its number of published items (spec3 §3 Button status). */
  status?: string;
  selectable: boolean;
  selected: boolean;
  busy: boolean;
  deleting: boolean;
  toggling: boolean;
  onSelectedChange: (selected: boolean) => void;
  onRename: (next: string) => Promise<unknown> | undefined;
  onToggle: (enabled: boolean) => void;
  onDelete: () => void;
};

/** A button card's first lines: select, icon, name, enabled, delete; then its state, flags and status. */
export const ButtonCardHeader = (props: Props) => {
  const stateText = props.state === 'clean' && props.dirty ? 'unsaved changes' : props.state;
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="center" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          {props.selectable && (
            <Checkbox
              aria-label={`Select ${props.name}`}
              checked={props.selected}
              onChange={(event) => props.onSelectedChange(event.currentTarget.checked)}
            />
          )}
          <ButtonIcon iconId={props.iconId} />
          {props.readOnly ? (
            <Text fw={500}>{props.name}</Text>
          ) : (
            <ClickToEdit
              value={props.name}
              label="publishing button name"
              maxLength={100}
              validate={nameError}
              onSubmit={props.onRename}
            />
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Switch
            label="Enabled"
            checked={props.enabled}
            disabled={props.busy || props.toggling}
            onChange={(event) => props.onToggle(event.currentTarget.checked)}
          />
          {!props.readOnly && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Delete ${props.name}`}
              loading={props.deleting}
              disabled={props.busy && !props.deleting}
              onClick={props.onDelete}
            >
              Delete
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="xs">
        <Badge
          variant="light"
          color={stateText === 'clean' ? 'teal' : stateText === 'unsaved changes' ? 'yellow' : 'blue'}
          aria-label={`State ${props.state}`}
        >
          {stateText}
        </Badge>
        {props.siteButton && (
          <Badge color="gray" variant="light">
            Site button
          </Badge>
        )}
        {props.complicated && (
          <Badge color="orange" variant="light">
            Complicated
          </Badge>
        )}
        {props.bad && (
          <Badge color="red" variant="light">
            Bad network
          </Badge>
        )}
        {props.status && (
          <Text size="sm" c="dimmed" data-testid="publish-status">
            {props.status}
          </Text>
        )}
      </Group>
    </Stack>
  );
};
