import { Alert, Anchor, Breadcrumbs, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { accountPath, PUBLISH_FOLDER_NAME } from '@media/contract';
import { PublishedItemsList } from '../publishing/PublishedItems.tsx';
import type { PublishTarget } from './FolderTree.tsx';
import { useNodeDropTarget } from './node-drag.ts';

/**
 * A publishing button's place in the media tree (/{account}/Publish/{button}, DESIGN "Publishing"): what
 * dropping media here does, and the button's published items with their progress, kept live. The whole
 * panel takes a drop too.
 */
export const PublishTargetView = ({
  accountName,
  path,
  buttonName,
  buttons,
  loading,
  error,
  onSelectFolder,
  onDropNodes,
}: {
  accountName: string;
  path: string;
  buttonName: string;
  buttons: PublishTarget[];
  loading: boolean;
  error: string | null;
  onSelectFolder: (path: string) => void;
  onDropNodes: (dstPath: string, paths: string[]) => void;
}) => {
  const button = buttons.find((candidate) => candidate.name.toLowerCase() === buttonName.toLowerCase());
  const target = useNodeDropTarget(button ? (paths) => onDropNodes(path, paths) : undefined, {
    effect: 'copy',
  });
  return (
    <Stack gap="sm">
      <nav aria-label="Folder path">
        <Breadcrumbs separator="›">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => onSelectFolder(accountPath(accountName, '/'))}
          >
            {accountName}
          </Anchor>
          <Text size="sm">{PUBLISH_FOLDER_NAME}</Text>
          <Text size="sm">{button?.name ?? buttonName}</Text>
        </Breadcrumbs>
      </nav>
      {loading && <Loader aria-label="Loading" />}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {!loading && !error && !button && (
        <Alert color="yellow" role="alert">
          There is no enabled publishing button named {buttonName} that you may run here.
        </Alert>
      )}
      {button && (
        <Paper
          withBorder
          p="sm"
          component="section"
          aria-label={`Publishing button ${button.name}`}
          bg={target.over ? 'var(--mantine-primary-color-light)' : undefined}
          style={{
            borderStyle: target.over ? 'dashed' : undefined,
            borderColor: target.over ? 'var(--mantine-primary-color-filled)' : undefined,
          }}
          {...target.props}
        >
          <Stack gap="xs">
            <Title order={3} size="h4">
              Published items of {button.name}
            </Title>
            <Text size="sm" c="dimmed">
              Drag media onto {button.name} in the folder tree (or here), or select media in a folder and
              choose Publish, to publish it with this button. Each publish shows here with its progress.
            </Text>
            <PublishedItemsList buttonId={button.id} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
};
