import { Anchor, Box, Button, Group, Text } from '@mantine/core';
import { displayName, durationFilter, formatNodeDate, type MediaNode } from '@media/contract';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { childrenCountText } from './listing-query.ts';
import { NodeIcon } from './NodeIcon.tsx';
import { nodeDragProps } from './node-drag.ts';

const THUMB_WIDTH = 64;
const THUMB_HEIGHT = 36;

/** The node's thumbnail (spec3 §3: /api/thumbs/{thumbId}/image.jpg), or its type's sign. */
export const Thumbnail = ({
  node,
  width = THUMB_WIDTH,
  height = THUMB_HEIGHT,
}: {
  node: MediaNode;
  width?: number;
  height?: number;
}) =>
  node.thumbId === null ? (
    <Box
      w={width}
      h={height}
      c={node.displayType === 'folder' ? 'yellow.7' : 'dimmed'}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <NodeIcon type={node.displayType} size={Math.round(height * 0.66)} />
    </Box>
  ) : (
    <img
      src={`/api/thumbs/${node.thumbId}/image.jpg`}
      alt=""
      width={width}
      height={height}
      loading="lazy"
      // A drag from the picture drags its node (nodeDragProps), not the picture.
      draggable={false}
      style={{ objectFit: 'cover', borderRadius: 2, display: 'block' }}
    />
  );

/** What the children table and the thumbnail grid both show and do. */
export type ChildrenViewProps = {
  nodes: MediaNode[];
  total: number;
  /** The total is a lower bound: the footer shows '1,000+'. */
  totalCapped?: boolean;
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
  /** Nodes can be dragged onto the tree's folders and publishing buttons (the selection, when one of it). */
  draggable?: boolean;
};

/** The selected folder's children, or the search results (spec3 §2), paged by nextChildOffset. */
export const ChildrenTable = (props: ChildrenViewProps) => {
  const { onOpenFolder, onPlay, draggable = false, selectedPaths } = props;
  const columns = useMemo<DataTableColumn<MediaNode>[]>(
    () => [
      {
        id: 'thumb',
        header: '',
        width: THUMB_WIDTH + 20,
        // The thumbnail is the handle that drags the node (or the selection it is part of) onto the tree.
        cell: (node) =>
          draggable ? (
            <Box
              {...nodeDragProps(node.path, selectedPaths)}
              title={`Drag ${displayName(node.name)} onto a folder or a publishing button`}
              aria-roledescription="draggable"
              data-testid="drag-handle"
              style={{ cursor: 'grab', width: 'fit-content' }}
            >
              <Thumbnail node={node} />
            </Box>
          ) : (
            <Thumbnail node={node} />
          ),
      },
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
            {/* A search result (searchKey) is a descendant anywhere below: its path shows. */}
            {node.searchKey !== null && (
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
    [onOpenFolder, onPlay, draggable, selectedPaths],
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
      <ChildrenFooter {...props} />
    </Box>
  );
};

/** How many children are shown of how many, and the next page's button. */
export const ChildrenFooter = (props: ChildrenViewProps) => (
  <Group justify="space-between" mt="xs">
    <Text size="xs" c="dimmed" data-testid="children-count">
      {childrenCountText(props.nodes.length, props.total, props.totalCapped)}
    </Text>
    {props.hasMore && (
      <Button variant="default" size="xs" loading={props.loadingMore} onClick={props.onLoadMore}>
        Load more
      </Button>
    )}
  </Group>
);
