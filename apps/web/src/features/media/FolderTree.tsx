import { Box, Button, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { type ChildOrder, displayName } from '@media/contract';
import type { KeyboardEvent } from 'react';
import { useNodeListing } from '../../api/nodes.ts';
import { childrenOf } from './listing-query.ts';
import { NodeIcon } from './NodeIcon.tsx';
import { treeKeyAction } from './tree-keys.ts';

type TreeProps = {
  rootPath: string;
  rootName: string;
  selectedPath: string;
  expanded: ReadonlySet<string>;
  childOrder: ChildOrder;
  onToggle: (path: string, open: boolean) => void;
  onSelect: (path: string) => void;
};

const ITEM = '[role="treeitem"]';

/**
 * The account's folders (spec3 §2): the root is the account; a folder's children load when it opens,
 * a page at a time. Arrow keys move and open or close, Enter selects (the WAI-ARIA tree pattern).
 */
export const FolderTree = (props: TreeProps) => {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>(ITEM);
    if (!item || (event.target as HTMLElement).closest('button')) return;
    const path = item.dataset.path ?? '';
    const action = treeKeyAction(event.key, {
      expandable: item.dataset.expandable === 'true',
      expanded: item.getAttribute('aria-expanded') === 'true',
    });
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(ITEM)];
    const index = items.indexOf(item);
    if (action === 'next' || action === 'firstChild') items[index + 1]?.focus();
    else if (action === 'previous') items[index - 1]?.focus();
    else if (action === 'expand') props.onToggle(path, true);
    else if (action === 'collapse') props.onToggle(path, false);
    else if (action === 'parent') item.parentElement?.closest<HTMLElement>(ITEM)?.focus();
    else props.onSelect(path);
  };

  return (
    <Box role="tree" aria-label="Folders" onKeyDown={onKeyDown}>
      <TreeFolder {...props} path={props.rootPath} name={props.rootName} level={1} expandable />
    </Box>
  );
};

type FolderProps = TreeProps & { path: string; name: string; level: number; expandable: boolean };

const TreeFolder = ({ path, name, level, expandable, ...tree }: FolderProps) => {
  const open = expandable && tree.expanded.has(path);
  const selected = path === tree.selectedPath;
  return (
    <Box
      role="treeitem"
      aria-label={name}
      aria-level={level}
      aria-selected={selected}
      aria-expanded={expandable ? open : undefined}
      data-path={path}
      data-expandable={expandable}
      tabIndex={selected ? 0 : -1}
      style={{ outlineOffset: -2 }}
    >
      <Group
        gap={2}
        wrap="nowrap"
        pl={(level - 1) * 14}
        bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
        style={{ borderRadius: 4 }}
      >
        <UnstyledButton
          tabIndex={-1}
          aria-label={open ? `Collapse ${name}` : `Expand ${name}`}
          onClick={() => tree.onToggle(path, !open)}
          w={18}
          ta="center"
          c="dimmed"
          style={{ visibility: expandable ? 'visible' : 'hidden' }}
        >
          {open ? '▾' : '▸'}
        </UnstyledButton>
        <UnstyledButton
          tabIndex={-1}
          aria-label={`Open ${name}`}
          onClick={() => {
            tree.onSelect(path);
            if (expandable && !open) tree.onToggle(path, true);
          }}
          py={2}
          px={4}
          style={{ flex: 1, minWidth: 0 }}
        >
          <Group gap={6} wrap="nowrap">
            <Box c="yellow.7" display="flex">
              <NodeIcon type="folder" />
            </Box>
            <Text size="sm" truncate fw={selected ? 600 : undefined}>
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Group>
      {open && <FolderChildren {...tree} path={path} level={level} />}
    </Box>
  );
};

const FolderChildren = ({ path, level, ...tree }: TreeProps & { path: string; level: number }) => {
  const listing = useNodeListing({ path, childOrder: tree.childOrder, types: ['folder'] });
  const folders = childrenOf(listing.data?.pages);
  return (
    <Box role="group">
      {listing.isPending && <Loader size="xs" ml={level * 14 + 18} aria-label={`Loading ${path}`} />}
      {listing.isError && (
        <Text size="xs" c="red" pl={level * 14 + 18}>
          {listing.error.message}
        </Text>
      )}
      {folders.map((folder) => (
        <TreeFolder
          key={folder.path}
          {...tree}
          path={folder.path}
          name={displayName(folder.name)}
          level={level + 1}
          expandable={folder.expandable}
        />
      ))}
      {listing.hasNextPage && (
        <Button
          variant="subtle"
          size="compact-xs"
          ml={level * 14 + 18}
          loading={listing.isFetchingNextPage}
          onClick={() => void listing.fetchNextPage()}
        >
          Load more
        </Button>
      )}
    </Box>
  );
};
