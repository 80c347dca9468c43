import { Anchor, Box, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { type Publish, publishTargetPath } from '@media/contract';
import { usePublishes } from '../../api/publishing.ts';
import { PublishStatusBadge } from '../publishing/PublishedItems.tsx';
import { forgetPublish, type RecentPublish, useRecentPublishes } from './recent-publishes.ts';

const PROGRESS_COLORS: Record<Publish['status'], string> = {
  queued: 'gray',
  running: 'cyan',
  done: 'teal',
  failed: 'red',
  deleted: 'gray',
};

/** How far an item is: a moving bar while it waits or has not said yet, its percent as it runs, full at the end. */
const progressOf = (item: Publish | undefined) => {
  if (!item || item.status === 'queued') return { value: 100, moving: true };
  if (item.status === 'running') return { value: item.progress ?? 0, moving: item.progress === null };
  return { value: 100, moving: false };
};

/**
 * The publishes started from this page (a drop on a publishing button or the Publish menu), each with its
 * status and progress kept live on the account's publishes channel, then where its result went or why it
 * failed. The button's name opens its place in the tree, where all its published items show.
 */
export const RecentPublishes = ({
  accountId,
  accountName,
  onOpenButton,
}: {
  accountId: number;
  accountName: string;
  onOpenButton: (path: string) => void;
}) => {
  const recent = useRecentPublishes(accountName);
  const items = usePublishes(
    recent.map((item) => item.id),
    accountId,
  );
  if (recent.length === 0) return null;
  return (
    <Paper withBorder p="xs" component="section" aria-label="Recent publishes">
      <Text size="sm" fw={600} mb={6}>
        Recent publishes
      </Text>
      <Stack gap="sm">
        {recent.map((item, index) => {
          const query = items[index];
          return (
            <RecentPublishItem
              key={item.id}
              item={item}
              publish={query?.data}
              error={query?.error?.message ?? null}
              onOpenButton={() => onOpenButton(publishTargetPath(accountName, item.buttonName))}
            />
          );
        })}
      </Stack>
    </Paper>
  );
};

const RecentPublishItem = ({
  item,
  publish,
  error,
  onOpenButton,
}: {
  item: RecentPublish;
  publish: Publish | undefined;
  error: string | null;
  onOpenButton: () => void;
}) => {
  const progress = progressOf(publish);
  const result = publish?.error ?? publish?.outputs.map((output) => output.location).join(', ');
  return (
    <Box data-testid="recent-publish" aria-label={`${item.nodeName} with ${item.buttonName}`}>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm" truncate title={item.nodeName}>
          {item.nodeName}
        </Text>
        <Group gap={2} wrap="nowrap">
          {publish ? (
            <PublishStatusBadge item={publish} />
          ) : (
            !error && (
              <Text size="xs" c="dimmed">
                Loading…
              </Text>
            )
          )}
          <CloseButton
            size="xs"
            aria-label={`Hide ${item.nodeName}`}
            onClick={() => forgetPublish(item.id)}
          />
        </Group>
      </Group>
      <Progress
        value={progress.value}
        size="sm"
        my={4}
        color={PROGRESS_COLORS[publish?.status ?? 'queued']}
        striped={progress.moving}
        animated={progress.moving}
        aria-label={`Progress of ${item.nodeName}`}
      />
      <Text size="xs" c="dimmed" truncate>
        with{' '}
        <Anchor component="button" type="button" size="xs" onClick={onOpenButton}>
          {item.buttonName}
        </Anchor>
      </Text>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      {result && (
        <Text size="xs" c={publish?.status === 'failed' ? 'red' : 'dimmed'} lineClamp={2} title={result}>
          {result}
        </Text>
      )}
    </Box>
  );
};
