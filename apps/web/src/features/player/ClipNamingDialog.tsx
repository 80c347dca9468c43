import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CLIP_NAMING_DIALOG_WIDTH, type ClipMarks, PLAYER_MESSAGES } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { showAlert } from '../../ui/alerts.tsx';
import { useSaveClip } from './player-queries.ts';

type Props = {
  /** The player's clipping; the dialog is open while there is one. */
  marks: ClipMarks | null;
  /** The media name the default title is made from. */
  mediaName: string;
  /** The folder the clip is saved to. */
  path: string;
  onClose: () => void;
};

/**
 * The clip naming dialog (spec3 §2): 'Save to current location: {path}', a title that defaults to the media
 * name followed by ' (copy)', and 'Clip' / 'Cancel'. Clip saves the clip under path; a refusal keeps the
 * dialog open so the title can be changed.
 */
export const ClipNamingDialog = ({ marks, mediaName, path, onClose }: Props) => (
  <Modal
    opened={marks !== null}
    onClose={onClose}
    size={CLIP_NAMING_DIALOG_WIDTH}
    centered
    withCloseButton={false}
  >
    {marks && <ClipNamingForm marks={marks} mediaName={mediaName} path={path} onClose={onClose} />}
  </Modal>
);

const ClipNamingForm = ({ marks, mediaName, path, onClose }: Props & { marks: ClipMarks }) => {
  const [title, setTitle] = useState(PLAYER_MESSAGES.clipTitle(mediaName));
  const save = useSaveClip();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = title.trim();
    if (!name) return;
    save.mutate(
      { clip: { ...marks, name }, parentPath: path },
      {
        onSuccess: () => {
          showAlert({ type: 'success', text: PLAYER_MESSAGES.clipSaved(name, path) });
          onClose();
        },
        onError: (error) =>
          showAlert({ type: 'danger', text: PLAYER_MESSAGES.clipSaveFailed(error.message) }),
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} data-testid="clip-naming-dialog">
      <Stack gap="sm">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {PLAYER_MESSAGES.saveToLocation(path)}
        </Text>
        <TextInput
          label={PLAYER_MESSAGES.titleLabel}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          data-autofocus
          required
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {PLAYER_MESSAGES.cancelButton}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!title.trim()}>
            {PLAYER_MESSAGES.clipButton}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
