import { Anchor, Box, Button, Group, Text } from '@mantine/core';
import { displayName, durationFilter, formatNodeDate, type MediaNode } from '@media/contract';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { NodeIcon } from './NodeIcon.tsx';

const THUMB_WIDTH = 64;
const THUMB_HEIGHT = 36;

/** The node's thumbnail (spec3 §3: /api/thumbs/{thumbId}/image.jpg), or its type's sign. */
const Thumbnail = ({ node }: { node: MediaNode }) =>
  node.thumbId === null ? (
    <Box
      w={THUMB_WIDTH}
      h={THUMB_HEIGHT}
      c={node.displayType === 'folder' ? 'yellow.7' : 'dimmed'}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <NodeIcon type={node.displayType} size={24} />
    </Box>
  ) : (
    <img
      src={`/api/thumbs/${node.thumbId}/image.jpg`}
      alt=""
      width={THUMB_WIDTH}
      height={THUMB_HEIGHT}
      loading="lazy"
      style={{ objectFit: 'cover', borderRadius: 2, display: 'block' }}
    />
  );

type ChildrenTableProps = {
  nodes: MediaNode[];
  total: number;
  /** Search results list matching descendants, so their paths show. */
  searching: boolean;
  loading: boolean;
  emptyText: string;
  selectedPaths: string[];
  onSelectionChange: (paths: string[]) => void;
  onOpenFolder: (path: string) => void;
  /** Opens the floating player on a node that has media (spec3 §2 Floating player). */
  onPlay: (node: MediaNode) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
};

/** The selected folder's children, or the search results (spec3 §2), paged by nextChildOffset. */
export const ChildrenTable = (props: ChildrenTableProps) => {
  const { onOpenFolder, onPlay, searching } = props;
  const columns = useMemo<DataTableColumn<MediaNode>[]>(
    () => [
      { id: 'thumb', header: '', width: THUMB_WIDTH + 20, cell: (node) => <Thumbnail node={node} /> },
      {
        id: 'name',
        header: 'Name',
        width: 300,
        cell: (node) => (
          <Box style={{ overflow: 'hidden' }}>
            {node.type === 'folder' ? (
              <Anchor component="button" type="button" size="sm" onClick={() => onOpenFolder(node.path)}>
                {displayName(node.name)}
              </Anchor>
            ) : node.mediaId !== null ? (
              <Anchor
                component="button"
                type="button"
                size="sm"
                title={`Play ${displayName(node.name)}`}
                onClick={() => onPlay(node)}
              >
                {displayName(node.name)}
              </Anchor>
            ) : (
              <Text size="sm" truncate>
                {displayName(node.name)}
              </Text>
            )}
            {searching && (
              <Text size="xs" c="dimmed" truncate title={node.path}>
                {node.path}
              </Text>
            )}
          </Box>
        ),
      },
      { id: 'type', header: 'Type', width: 100, cell: (node) => node.displayType },
      {
        id: 'created',
        header: 'Created',
        width: 110,
        cell: (node) => formatNodeDate(new Date(node.createdTime)),
      },
      {
        id: 'duration',
        header: 'Duration',
        width: 100,
        cell: (node) => (node.duration === null ? '' : durationFilter(node.duration)),
      },
    ],
    [onOpenFolder, onPlay, searching],
  );

  return (
    <Box>
      <DataTable
        entities="nodes"
        rows={props.nodes}
        total={props.total}
        getRowId={(node) => node.path}
        columns={columns}
        loading={props.loading}
        emptyText={props.emptyText}
        selectedIds={props.selectedPaths}
        onSelectionChange={props.onSelectionChange}
        dragSelect
        rowHeight={THUMB_HEIGHT + 12}
        height={520}
      />
      <Group justify="space-between" mt="xs">
        <Text size="xs" c="dimmed" data-testid="children-count">
          {props.nodes.length} of {props.total}
        </Text>
        {props.hasMore && (
          <Button variant="default" size="xs" loading={props.loadingMore} onClick={props.onLoadMore}>
            Load more
          </Button>
        )}
      </Group>
    </Box>
  );
};
