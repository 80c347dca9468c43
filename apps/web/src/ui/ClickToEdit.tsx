import { ActionIcon, Group, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useRef, useState } from 'react';

type ClickToEditProps = {
  value: string;
  /** Called only when the text changed; a failure puts the old text back. */
  onSubmit: (next: string) => Promise<unknown> | undefined;
  label: string;
  maxLength?: number;
  validate?: (next: string) => string | undefined;
};

/** Click-to-edit text (spec3 §2): Enter or blur submits when changed, Escape reverts. */
export const ClickToEdit = ({ value, onSubmit, label, maxLength, validate }: ClickToEditProps) => {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [saving, setSaving] = useState(false);
  // Disabling the focused input while saving fires a blur; this keeps that blur from submitting again.
  const inFlight = useRef(false);
  const error = editing ? validate?.(draft) : undefined;

  const revert = () => {
    setDraft(value);
    setEditing(false);
  };
  const submit = async () => {
    if (error || inFlight.current) return;
    const next = draft.trim();
    if (next === value) {
      revert();
      return;
    }
    inFlight.current = true;
    setSaving(true);
    try {
      await onSubmit(next);
      setEditing(false);
    } catch {
      revert();
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <UnstyledButton
        onClick={() => {
          setDraft(value);
          setEditing(true);
        }}
      >
        {/* Named by its content, so that the name a person hears holds the value they see (WCAG 2.5.3). */}
        <Group gap={4}>
          <VisuallyHidden>Edit {label}: </VisuallyHidden>
          <Text>{value}</Text>
          <Text c="dimmed" size="xs" aria-hidden>
            ✎
          </Text>
        </Group>
      </UnstyledButton>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <TextInput
        aria-label={label}
        autoFocus
        size="xs"
        value={draft}
        maxLength={maxLength}
        error={error}
        disabled={saving}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={() => void submit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void submit();
          if (e.key === 'Escape') revert();
        }}
      />
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label="Revert"
        onMouseDown={(e) => e.preventDefault()}
        onClick={revert}
      >
        ↺
      </ActionIcon>
    </Group>
  );
};
