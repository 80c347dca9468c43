import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Loader,
  Modal,
  NavLink,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { displayName, type MediaNode, NODE_MESSAGES, type TransferOperation } from '@media/contract';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useNodeListing, useTransfer, useTransferTypes } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { useReturnFocusOnUnmount } from '../../ui/useReturnFocus.ts';
import { childrenOf } from './listing-query.ts';
import { breadcrumbsOf } from './media-address.ts';
import { NodeIcon } from './NodeIcon.tsx';

const OPERATION_LABELS: Record<TransferOperation, string> = {
  move: 'Move',
  copy: 'Copy',
  publish: 'Publish',
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Move or copy (spec3 §2, §4 Transfers): choose a destination folder, ask the server what may be done
 * there (POST /api/nodesTransferType), offer only that, then transfer and report the server's message.
 * Nodes dropped on a folder of the tree open it with that folder chosen already.
 */
export const TransferDialog = ({
  sources,
  startPath,
  chosen = false,
  onDone,
  onClose,
}: {
  sources: Pick<MediaNode, 'path' | 'name'>[];
  startPath: string;
  /** The start folder is the destination already (a drop on it). */
  chosen?: boolean;
  onDone: (operation: TransferOperation) => void;
  onClose: () => void;
}) => {
  useReturnFocusOnUnmount();
  const [at, setAt] = useState(startPath);
  const [destination, setDestination] = useState<string | null>(null);
  const listing = useNodeListing({ path: at, childOrder: 'alphabetical', types: ['folder'] });
  const types = useTransferTypes();
  const transfer = useTransfer();
  const srcPath = sources.map((node) => node.path);
  const page = listing.data?.pages[0]?.results;
  const folders = childrenOf(listing.data?.pages);

  const browse = (path: string) => {
    setAt(path);
    setDestination(null);
    types.reset();
  };
  const choose = () => {
    setDestination(at);
    types.mutate({ srcPath, dstPath: at });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a dropped-on folder is chosen once, as the dialog opens
  useEffect(() => {
    if (chosen) choose();
  }, []);
  const run = async (operation: TransferOperation) => {
    if (!destination) return;
    try {
      const result = await transfer.mutateAsync({ srcPath, dstPath: destination, operation });
      // spec3 §8: the transfer's success is an info message, other server messages a warning.
      showAlert({ type: 'info', text: result.message, source: 'nodes' });
      onDone(operation);
      onClose();
    } catch (error) {
      // notEnoughPublishData belongs to publishing, which folders do not offer; other refusals are warnings.
      const text =
        error instanceof ApiError && error.code === NODE_MESSAGES.notEnoughPublishData
          ? NODE_MESSAGES.publishUnavailable
          : messageOf(error);
      showAlert({ type: 'warning', text, source: 'nodes' });
    }
  };

  const names = sources.map((node) => displayName(node.name)).join(', ');
  return (
    <Modal opened onClose={onClose} title="Move or copy" centered size="lg">
      <Stack gap="sm">
        <Text size="sm">
          {sources.length === 1 ? 'Node' : `${sources.length} nodes`}: <b>{names}</b>
        </Text>
        <Text size="sm" fw={600}>
          Destination folder
        </Text>
        {page && (
          <nav aria-label="Destination path">
            <Breadcrumbs separator="›">
              {breadcrumbsOf(page).map((crumb) => (
                <Anchor
                  key={crumb.path}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => browse(crumb.path)}
                >
                  {crumb.name}
                </Anchor>
              ))}
            </Breadcrumbs>
          </nav>
        )}
        <ScrollArea.Autosize mah={260} type="auto">
          <nav aria-label="Destination folders">
            {listing.isPending && <Loader size="sm" aria-label="Loading folders" />}
            {listing.isError && (
              <Alert color="red" role="alert">
                {NODE_MESSAGES.fetchFailed(listing.error.message)}
              </Alert>
            )}
            {page && folders.length === 0 && (
              <Text size="sm" c="dimmed">
                No folders here
              </Text>
            )}
            {folders.map((folder) => (
              <NavLink
                key={folder.path}
                label={displayName(folder.name)}
                leftSection={<NodeIcon type="folder" />}
                onClick={() => browse(folder.path)}
                disabled={srcPath.includes(folder.path)}
              />
            ))}
            {listing.hasNextPage && (
              <Button variant="subtle" size="xs" onClick={() => void listing.fetchNextPage()}>
                Load more
              </Button>
            )}
          </nav>
        </ScrollArea.Autosize>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {page ? page.node.path : at}
          </Text>
          <Button
            variant="light"
            onClick={choose}
            disabled={!page || listing.isPlaceholderData || destination === at}
          >
            Choose this folder
          </Button>
        </Group>
        {types.isPending && <Loader size="sm" aria-label="Fetching file operations" />}
        {types.isError && (
          <Alert color="red" role="alert">
            {NODE_MESSAGES.fileOperationsFailed(types.error.message)}
          </Alert>
        )}
        {types.data && types.data.operations.length === 0 && (
          <Alert color="yellow">{NODE_MESSAGES.noOperations}</Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {types.data?.operations.map((operation) => (
            <Button
              key={operation}
              loading={transfer.isPending && transfer.variables?.operation === operation}
              disabled={transfer.isPending}
              onClick={() => void run(operation)}
            >
              {OPERATION_LABELS[operation]}
            </Button>
          ))}
        </Group>
      </Stack>
    </Modal>
  );
};
