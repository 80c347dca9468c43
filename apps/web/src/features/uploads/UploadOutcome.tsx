import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { folderApiPathOf, type Upload } from '@media/contract';
import { openPlayer } from '../player/player-store.ts';

/**
 * What became of an upload (spec1 upload; issue 13): a media upload is a node whose proxy a cloud job makes
 * (its percentage), then plays in the floating player; a failed one says why; documents and metadata
 * mappings are stored, to download.
 */
export const UploadOutcome = ({ upload, accountName }: { upload: Upload; accountName: string }) => {
  if (upload.kind !== 'media')
    return (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm">{upload.kind === 'document' ? 'Stored' : 'Received'}</Text>
        <Anchor
          size="sm"
          href={`/api/accounts/${upload.accountId}/uploads/${upload.id}/file`}
          download={upload.fileName}
          aria-label={`Download ${upload.fileName}`}
        >
          Download
        </Anchor>
      </Group>
    );
  if (upload.status === 'failed')
    return (
      <Group gap="xs" wrap="nowrap" title={upload.error ?? undefined}>
        <Badge color="red" variant="light" style={{ flex: 'none' }}>
          Failed
        </Badge>
        <Text size="xs" c="red" truncate data-testid="upload-error">
          {upload.error}
        </Text>
      </Group>
    );
  if (upload.status === 'processing' || upload.status === 'received')
    return (
      <Stack gap={2} data-testid="upload-processing">
        <Text size="sm">Making the proxy {upload.progress ?? 0}%</Text>
        <Progress value={upload.progress ?? 0} size="sm" aria-label={`Proxy of ${upload.name}`} />
      </Stack>
    );
  const { nodePath, mediaId } = upload;
  if (!nodePath || mediaId === null) return <Text size="sm">Ready (its node was deleted)</Text>;
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge color="green" variant="light" style={{ flex: 'none' }}>
        Ready
      </Badge>
      <Anchor
        component="button"
        size="sm"
        title={nodePath}
        aria-label={`Play ${nodePath}`}
        onClick={() =>
          openPlayer({
            mediaId,
            name: upload.name,
            path: folderApiPathOf(accountName, nodePath),
            accountId: upload.accountId,
            accountName,
          })
        }
      >
        Play
      </Anchor>
      <Text size="xs" c="dimmed" truncate>
        {nodePath}
      </Text>
    </Group>
  );
};
