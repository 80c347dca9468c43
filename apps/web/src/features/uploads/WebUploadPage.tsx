import '@mantine/dropzone/styles.css';
import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import {
  type Account,
  ASPECTS,
  type Aspect,
  defaultUploadLocation,
  ingestFormatLabel,
  unpackIngestFormat,
  webUploadKindOf,
} from '@media/contract';
import { useEffect, useState } from 'react';
import { useIngestFormats } from '../../api/account-config.ts';
import { markDirty } from '../../ui/unsaved-changes.tsx';
import { PlayerHost } from '../player/PlayerHost.tsx';
import { canChooseSeveralFiles, UploadAllowed, UploadPageFrame } from './UploadPageFrame.tsx';
import { ChosenFiles, RecentUploads } from './UploadParts.tsx';
import { useUploadQueue } from './useUploadQueue.ts';

/** `/accounts/{accountName}/webupload`: media and documents into the account (spec1 §2). */
export const WebUploadPage = () => (
  <UploadPageFrame title="Web upload">
    {(account) => (
      <UploadAllowed account={account}>
        <WebUpload account={account} />
      </UploadAllowed>
    )}
  </UploadPageFrame>
);

const ASPECT_CHOICES = (Object.keys(ASPECTS) as Aspect[]).map((aspect) => ({
  value: aspect,
  label: `${aspect} (${ASPECTS[aspect]})`,
}));

const WebUpload = ({ account }: { account: Account }) => {
  const formats = useIngestFormats(account.id);
  const [format, setFormat] = useState<string | null>(null);
  const [aspect, setAspect] = useState<Aspect>('wide');
  const [location, setLocation] = useState(() => defaultUploadLocation(new Date()));
  const [refused, setRefused] = useState<string[]>([]);
  const queue = useUploadQueue((file) => {
    const query = new URLSearchParams({ uploadname: file.name.trim(), aspect, location: location.trim() });
    if (format) query.set('format', format);
    return `/api/accounts/${account.id}/uploads?${query}`;
  });
  const waiting = queue.files.some((f) => f.status === 'choosing');
  const dirtyId = `web-upload-${account.id}`;
  useEffect(() => {
    markDirty(dirtyId, queue.state === 'uploading' || waiting);
    return () => markDirty(dirtyId, false);
  }, [dirtyId, queue.state, waiting]);
  // The first ingest format is the account's default; its aspect is the natural one.
  useEffect(() => {
    const first = formats.data?.[0];
    if (first && format === null) {
      setFormat(first);
      setAspect(unpackIngestFormat(first).format.aspect);
    }
  }, [formats.data, format]);

  const choose = (files: File[]) => {
    setRefused(files.filter((f) => !webUploadKindOf(f.name)).map((f) => f.name));
    queue.add(files.filter((f) => webUploadKindOf(f.name)));
  };
  const done = queue.files.filter((f) => f.status === 'complete').length;
  const failed = queue.files.filter((f) => f.status === 'error').length;
  const namesValid = queue.files.every((f) => f.name.trim() !== '');

  return (
    <Stack>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label="Format"
              placeholder={formats.isPending ? 'Loading…' : 'No ingest formats: the site decides'}
              data={(formats.data ?? []).map((stored) => ({
                value: stored,
                label: ingestFormatLabel(unpackIngestFormat(stored).format),
              }))}
              value={format}
              onChange={(value) => {
                setFormat(value);
                if (value) setAspect(unpackIngestFormat(value).format.aspect);
              }}
              disabled={queue.state === 'uploading'}
              clearable
            />
            <Select
              label="Aspect"
              data={ASPECT_CHOICES}
              value={aspect}
              allowDeselect={false}
              onChange={(value) => value && setAspect(value as Aspect)}
              disabled={queue.state === 'uploading'}
            />
            <TextInput
              label="Location"
              value={location}
              onChange={(event) => setLocation(event.currentTarget.value)}
              disabled={queue.state === 'uploading'}
              error={location.trim() ? undefined : 'This field is required'}
            />
          </SimpleGrid>
          <Dropzone onDrop={choose} multiple={canChooseSeveralFiles()} aria-label="Choose files">
            <Stack align="center" gap={4} py="lg">
              <Title order={4}>Drop media files or documents here, or click to choose</Title>
              <Text size="sm" c="dimmed">
                {queue.state === 'uploading'
                  ? 'Adding files now stops the file being sent; it waits with the new ones.'
                  : 'Video, audio, stills and documents; one file is sent at a time.'}
              </Text>
            </Stack>
          </Dropzone>
          {refused.length > 0 && (
            <Alert color="yellow" title="Not added" withCloseButton onClose={() => setRefused([])}>
              These files are not media or documents: {refused.join(', ')}
            </Alert>
          )}
          {queue.files.length > 0 && (
            <ChosenFiles
              files={queue.files}
              editable={queue.state === 'choosing'}
              onRename={queue.rename}
              onRemove={queue.remove}
            />
          )}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="upload-summary">
              {queue.state === 'complete'
                ? `Upload complete: ${done} uploaded${failed ? `, ${failed} failed` : ''}. Add files to upload more.`
                : queue.state === 'uploading'
                  ? `Uploading ${done + failed + 1} of ${queue.files.length}…`
                  : `${queue.files.length} file(s) chosen`}
            </Text>
            <Group>
              <Button
                variant="default"
                onClick={queue.clear}
                disabled={queue.state === 'uploading' || queue.files.length === 0}
              >
                Clear
              </Button>
              <Button
                onClick={() => void queue.start()}
                loading={queue.state === 'uploading'}
                disabled={!waiting || !namesValid || !location.trim()}
              >
                Upload
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>
      <Title order={3}>Uploads of this account</Title>
      <RecentUploads accountId={account.id} accountName={account.name} />
      <PlayerHost />
    </Stack>
  );
};
