import { Button, FileButton, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { PUBLISH_ICON_TYPES, PUBLISH_MESSAGES, type PublishIcon } from '@media/contract';
import { useState } from 'react';
import { showAlert } from '../../ui/alerts.tsx';

type Props = {
  opened: boolean;
  onClose: () => void;
  /** Sends the file, reporting progress as a fraction; answers the stored icon. */
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<PublishIcon>;
  onUploaded: (icon: PublishIcon) => void;
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * spec3 §2 / §4 icon dialog: idle, then uploading with a rounded percent, then closed on success, or a
 * warning and back to idle. Upload is disabled until a file is chosen and while uploading.
 */
export const IconUploadDialog = ({ opened, onClose, upload, onUploaded }: Props) => {
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const uploading = percent !== null;

  const close = () => {
    setFile(null);
    setPercent(null);
    onClose();
  };
  const start = async () => {
    if (!file) return;
    setPercent(0);
    try {
      const icon = await upload(file, (fraction) => setPercent(Math.round(fraction * 100)));
      showAlert({ type: 'success', text: PUBLISH_MESSAGES.iconUploaded, source: 'publishing' });
      onUploaded(icon);
      close();
    } catch (error) {
      showAlert({
        type: 'warning',
        text: PUBLISH_MESSAGES.iconUploadFailed(errorText(error)),
        source: 'publishing',
      });
      setPercent(null);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={PUBLISH_MESSAGES.uploadIconTitle}
      centered
      closeOnClickOutside={!uploading}
      closeOnEscape={!uploading}
    >
      <Stack gap="sm">
        <Group gap="sm">
          <FileButton onChange={setFile} accept={PUBLISH_ICON_TYPES.join(',')} disabled={uploading}>
            {(props) => (
              <Button variant="default" {...props}>
                {PUBLISH_MESSAGES.chooseIcon}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c={file ? undefined : 'dimmed'} data-testid="icon-file-name">
            {file ? file.name : 'No file chosen'}
          </Text>
        </Group>
        {uploading && (
          <Stack gap={4}>
            <Progress value={percent} aria-label="Upload progress" animated striped />
            <Text size="sm" ta="right" data-testid="icon-upload-percent">
              {percent}%
            </Text>
          </Stack>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={() => void start()} disabled={!file || uploading} loading={uploading}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};
