import { Button, Group } from '@mantine/core';

/** The Save Changes / Discard Changes pair of the editable lists (spec1 §2); both off until something changed. */
export const SaveChangesButtons = (props: {
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
  saveLabel?: string;
}) => (
  <Group>
    <Button onClick={props.onSave} disabled={!props.dirty} loading={props.saving}>
      {props.saveLabel ?? 'Save Changes'}
    </Button>
    <Button variant="default" onClick={props.onDiscard} disabled={!props.dirty || props.saving}>
      Discard Changes
    </Button>
  </Group>
);
