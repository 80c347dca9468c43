import { Box, Group, Loader, Paper, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { displayName, durationFilter, formatNodeDate, type MediaNode } from '@media/contract';
import type { KeyboardEvent, MouseEvent } from 'react';
import { ChildrenFooter, type ChildrenViewProps, Thumbnail } from './ChildrenTable.tsx';
import { nodeDragProps } from './node-drag.ts';

const CARD_THUMB_WIDTH = 160;
const CARD_THUMB_HEIGHT = 90;

/**
 * The selected folder's children as a thumbnail grid (spec3 §2: the media manager's grid-only option, and
 * the Grid view of the full page). A click selects a card (Ctrl or ⌘ adds or removes it); a double click,
 * or Enter, opens a folder or plays a media node; Space selects from the keyboard.
 */
export const ChildrenGrid = (props: ChildrenViewProps) => {
  const { nodes, selectedPaths, onSelectionChange, onOpenFolder, onPlay } = props;
  const selected = new Set(selectedPaths);

  const choose = (node: MediaNode, adding: boolean) => {
    if (!adding) return onSelectionChange([node.path]);
    onSelectionChange(
      selected.has(node.path)
        ? selectedPaths.filter((path) => path !== node.path)
        : [...selectedPaths, node.path],
    );
  };
  const open = (node: MediaNode) => {
    if (node.type === 'folder') onOpenFolder(node.path);
    else if (node.mediaId !== null) onPlay(node);
  };
  const onKeyDown = (node: MediaNode) => (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      open(node);
    } else if (event.key === ' ') {
      event.preventDefault();
      choose(node, event.ctrlKey || event.metaKey);
    }
  };
  const onClick = (node: MediaNode) => (event: MouseEvent) => choose(node, event.ctrlKey || event.metaKey);

  if (nodes.length === 0) {
    return props.loading ? (
      <Loader aria-label="Loading" />
    ) : (
      <Text c="dimmed" ta="center" py="xl">
        {props.emptyText}
      </Text>
    );
  }
  return (
    <Box>
      <SimpleGrid
        component="ul"
        aria-label="Children"
        cols={{ base: 2, sm: 3, lg: 5 }}
        spacing="sm"
        style={{ listStyle: 'none', padding: 0, margin: 0, opacity: props.loading ? 0.6 : 1 }}
      >
        {nodes.map((node) => {
          const isSelected = selected.has(node.path);
          const name = displayName(node.name);
          return (
            <li key={node.path}>
              <Paper
                withBorder
                p={6}
                radius="sm"
                bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                style={{ borderColor: isSelected ? 'var(--mantine-primary-color-filled)' : undefined }}
              >
                <UnstyledButton
                  aria-pressed={isSelected}
                  aria-label={name}
                  title={
                    node.type === 'folder' ? `Open ${name}` : node.mediaId !== null ? `Play ${name}` : name
                  }
                  w="100%"
                  onClick={onClick(node)}
                  onDoubleClick={() => open(node)}
                  onKeyDown={onKeyDown(node)}
                  data-testid="grid-card"
                  {...(props.draggable ? nodeDragProps(node.path, selectedPaths) : {})}
                >
                  <Box style={{ display: 'flex', justifyContent: 'center' }}>
                    <Thumbnail node={node} width={CARD_THUMB_WIDTH} height={CARD_THUMB_HEIGHT} />
                  </Box>
                  <Text size="sm" fw={500} truncate mt={4}>
                    {name}
                  </Text>
                </UnstyledButton>
                {/* Beside the button, whose name is the node's name alone (WCAG 2.5.3, label in name). */}
                {node.searchKey !== null && (
                  <Text size="xs" c="dimmed" truncate title={node.path}>
                    {node.path}
                  </Text>
                )}
                <Group justify="space-between" gap={4} wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    {formatNodeDate(new Date(node.createdTime))}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {node.duration === null ? node.displayType : durationFilter(node.duration)}
                  </Text>
                </Group>
              </Paper>
            </li>
          );
        })}
      </SimpleGrid>
      <ChildrenFooter {...props} />
    </Box>
  );
};
