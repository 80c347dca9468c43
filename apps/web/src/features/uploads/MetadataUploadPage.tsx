import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type Account, isCsvFileName, MSG_METADATA_MAPPING_TARGET } from '@media/contract';
import { useEffect } from 'react';
import { markDirty } from '../../ui/unsaved-changes.tsx';
import { canChooseSeveralFiles, UploadAllowed, UploadPageFrame } from './UploadPageFrame.tsx';
import { ChosenFiles, RecentUploads } from './UploadParts.tsx';
import { useUploadQueue } from './useUploadQueue.ts';

/** `/accounts/{accountName}/metaupload`: metadata mapping CSV files for the account (spec1 §2). */
export const MetadataUploadPage = () => (
  <UploadPageFrame title="Metadata upload">
    {(account) => (
      <UploadAllowed account={account} kind="metadataMapping">
        <MetadataUpload account={account} />
      </UploadAllowed>
    )}
  </UploadPageFrame>
);

const MetadataUpload = ({ account }: { account: Account }) => {
  const queue = useUploadQueue(
    (file) =>
      `/api/accounts/${account.id}/metadataMappings?${new URLSearchParams({ uploadname: file.name.trim() })}`,
  );
  const waiting = queue.files.some((f) => f.status === 'choosing');
  const dirtyId = `metadata-upload-${account.id}`;
  useEffect(() => {
    markDirty(dirtyId, queue.state === 'uploading' || waiting);
    return () => markDirty(dirtyId, false);
  }, [dirtyId, queue.state, waiting]);
  const several = canChooseSeveralFiles();

  return (
    <Stack>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3}>{MSG_METADATA_MAPPING_TARGET(account.name)}</Title>
          <Group>
            {several ? (
              <FileButton onChange={(files) => queue.add(files)} accept=".csv,text/csv" multiple>
                {(props) => (
                  <Button variant="light" disabled={queue.state === 'uploading'} {...props}>
                    Choose CSV files
                  </Button>
                )}
              </FileButton>
            ) : (
              <FileButton onChange={(file) => file && queue.add([file])} accept=".csv,text/csv">
                {(props) => (
                  <Button variant="light" disabled={queue.state === 'uploading'} {...props}>
                    Choose a CSV file
                  </Button>
                )}
              </FileButton>
            )}
            <Text size="sm" c="dimmed">
              {queue.files.length ? queue.files.map((f) => f.file.name).join(', ') : 'No file chosen'}
            </Text>
          </Group>
          {queue.files.some((f) => !isCsvFileName(f.file.name)) && (
            <Text size="sm" c="orange">
              Only .csv files are taken; the others will be refused.
            </Text>
          )}
          {queue.files.length > 0 && (
            <ChosenFiles
              files={queue.files}
              editable={queue.state === 'choosing'}
              onRename={queue.rename}
              onRemove={queue.remove}
            />
          )}
          <Group justify="flex-end">
            <Button
              onClick={() => void queue.start()}
              loading={queue.state === 'uploading'}
              disabled={!waiting || queue.files.some((f) => !f.name.trim())}
            >
              Upload file(s)
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Title order={3}>Metadata mappings of this account</Title>
      <RecentUploads accountId={account.id} accountName={account.name} kind="metadataMapping" />
    </Stack>
  );
};
