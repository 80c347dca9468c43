import { Button, Group } from '@mantine/core';

/** The Save Changes / Discard Changes pair of the editable lists (spec1 §2); both off until something changed. */
export const SaveChangesButtons = (props: {
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
  saveLabel?: string;
  /** False keeps Save off while the changes are invalid; Discard stays available. */
  valid?: boolean;
}) => (
  <Group>
    <Button onClick={props.onSave} disabled={!props.dirty || props.valid === false} loading={props.saving}>
      {props.saveLabel ?? 'Save Changes'}
    </Button>
    <Button variant="default" onClick={props.onDiscard} disabled={!props.dirty || props.saving}>
      Discard Changes
    </Button>
  </Group>
);
