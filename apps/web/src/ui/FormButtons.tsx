import { Button, Group } from '@mantine/core';
import type { SaveState } from '@media/contract';

/** The form buttons of spec3 §2: Save / Saving (Create / Creating for a new object) and Discard changes. */
export const FormButtons = (props: {
  state: SaveState;
  dirty: boolean;
  valid?: boolean;
  onSave: () => void;
  onDiscard: () => void;
}) => {
  const creating = props.state === 'new' || props.state === 'creating';
  const busy = props.state === 'saving' || props.state === 'creating';
  const label = creating ? (busy ? 'Creating' : 'Create') : busy ? 'Saving' : 'Save';
  return (
    <Group gap="sm">
      <Button onClick={props.onSave} disabled={busy || !props.dirty || props.valid === false} loading={busy}>
        {label}
      </Button>
      <Button variant="default" onClick={props.onDiscard} disabled={busy || !props.dirty}>
        {creating ? 'Discard' : 'Discard changes'}
      </Button>
    </Group>
  );
};
