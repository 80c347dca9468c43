import { Badge, Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

/** Keeps a card clear of the fixed header when the address or a selection scrolls to it. */
const HEADER_CLEARANCE = 72;

/**
 * One editable card (spec2 §2): selected by a click or by focusing anything inside it, outlined while
 * selected, with a header that says when it holds unsaved changes.
 */
export const EditCard = (props: {
  domId: string;
  label: string;
  selected: boolean;
  onSelect: () => void;
  dirty: boolean;
  header: ReactNode;
  headerRight?: ReactNode;
  children: ReactNode;
}) => (
  <Paper
    withBorder
    p="md"
    component="article"
    id={props.domId}
    aria-label={props.label}
    aria-current={props.selected ? 'true' : undefined}
    data-selected={props.selected || undefined}
    onClick={props.onSelect}
    onFocusCapture={props.onSelect}
    style={{
      scrollMarginTop: HEADER_CLEARANCE,
      outline: props.selected ? '2px solid var(--mantine-primary-color-filled)' : undefined,
      outlineOffset: -1,
    }}
  >
    <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm">
      <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
        {props.header}
        {props.dirty && <UnsavedBadge />}
      </Group>
      {props.headerRight && (
        <Group gap="xs" wrap="nowrap">
          {props.headerRight}
        </Group>
      )}
    </Group>
    {props.children}
  </Paper>
);

export const UnsavedBadge = () => (
  <Badge color="orange" variant="light" data-testid="unsaved-changes">
    Unsaved changes
  </Badge>
);
