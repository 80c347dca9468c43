import { Box, Button, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import {
  accountPath,
  type ChildOrder,
  displayName,
  PUBLISH_FOLDER_NAME,
  publishTargetPath,
} from '@media/contract';
import type { KeyboardEvent, ReactNode } from 'react';
import { useNodeListing } from '../../api/nodes.ts';
import { childrenOf } from './listing-query.ts';
import { NodeIcon } from './NodeIcon.tsx';
import { useDraggingNodes, useNodeDropTarget } from './node-drag.ts';
import { treeKeyAction } from './tree-keys.ts';

type TreeProps = {
  rootPath: string;
  rootName: string;
  selectedPath: string;
  expanded: ReadonlySet<string>;
  childOrder: ChildOrder;
  onToggle: (path: string, open: boolean) => void;
  onSelect: (path: string) => void;
  /** Nodes dropped on a folder or a publishing button of the tree; nothing is a drop target without it. */
  onDropNodes?: (dstPath: string, paths: string[]) => void;
  /** The publishing buttons the tree shows under Publish (none: no Publish folder). */
  publishButtons?: PublishTarget[];
};

/** A publishing button as the tree shows it. */
export type PublishTarget = { id: number; name: string };

const ITEM = '[role="treeitem"]';

/**
 * The account's folders (spec3 §2): the root is the account; a folder's children load when it opens,
 * a page at a time. Arrow keys move and open or close, Enter selects (the WAI-ARIA tree pattern). Nodes
 * dragged from the folder's children drop on a folder (move or copy) or on a publishing button (publish);
 * a closed folder held under a drag opens.
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
    else if (action === 'parent') {
      const level = Number(item.getAttribute('aria-level'));
      items
        .slice(0, index)
        .findLast((candidate) => Number(candidate.getAttribute('aria-level')) === level - 1)
        ?.focus();
    } else if (item.dataset.selectable === 'false')
      props.onToggle(path, item.getAttribute('aria-expanded') !== 'true');
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
  return (
    <TreeRow
      path={path}
      name={name}
      level={level}
      expandable={expandable}
      open={open}
      selected={path === tree.selectedPath}
      icon={<NodeIcon type="folder" />}
      dropEffect="move"
      onDropNodes={tree.onDropNodes}
      onToggle={tree.onToggle}
      onOpen={() => {
        tree.onSelect(path);
        if (expandable && !open) tree.onToggle(path, true);
      }}
    >
      {open && <FolderChildren {...tree} path={path} level={level} />}
      {level === 1 && tree.publishButtons && tree.publishButtons.length > 0 && (
        <PublishFolder {...tree} level={level + 1} buttons={tree.publishButtons} />
      )}
    </TreeRow>
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

/**
 * The account's publishing buttons where the tree shows them (DESIGN "Publishing"): /{account}/Publish/
 * {button}. Media dropped on a button is published with it; selecting one shows its published items.
 */
const PublishFolder = ({
  level,
  buttons,
  ...tree
}: TreeProps & { level: number; buttons: PublishTarget[] }) => {
  const path = accountPath(tree.rootName, `/${PUBLISH_FOLDER_NAME}`);
  const open = tree.expanded.has(path);
  return (
    <Box role="group">
      <TreeRow
        path={path}
        name={PUBLISH_FOLDER_NAME}
        level={level}
        expandable
        open={open}
        selected={false}
        selectable={false}
        icon={<PublishIcon />}
        onDropNodes={tree.onDropNodes}
        onToggle={tree.onToggle}
        onOpen={() => tree.onToggle(path, !open)}
      >
        {open && (
          <Box role="group">
            {buttons.map((button) => {
              const target = publishTargetPath(tree.rootName, button.name);
              return (
                <TreeRow
                  key={button.id}
                  path={target}
                  name={button.name}
                  level={level + 1}
                  expandable={false}
                  open={false}
                  selected={target === tree.selectedPath}
                  icon={<PublishIcon button />}
                  dropEffect="copy"
                  invites
                  onDropNodes={tree.onDropNodes}
                  onToggle={tree.onToggle}
                  onOpen={() => tree.onSelect(target)}
                />
              );
            })}
          </Box>
        )}
      </TreeRow>
    </Box>
  );
};

/** An arrow out of a tray: publishing. */
const PublishIcon = ({ button = false }: { button?: boolean }) => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 16 16"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.6"
  >
    {button ? <circle cx="8" cy="8" r="6.5" /> : <path d="M2 10v4h12v-4" />}
    <path d={button ? 'M8 11V5M5.5 7.5 8 5l2.5 2.5' : 'M8 11V2M5 5l3-3 3 3'} />
  </svg>
);

type RowProps = {
  path: string;
  name: string;
  level: number;
  expandable: boolean;
  open: boolean;
  selected: boolean;
  /** Enter and a click select it (a folder, a button); the Publish folder only opens. */
  selectable?: boolean;
  icon: ReactNode;
  /** What a drop here does, as the pointer shows it; no drop without onDropNodes. */
  dropEffect?: 'move' | 'copy';
  /** Shows itself as a place to drop while nodes are dragged (publishing buttons). */
  invites?: boolean;
  onDropNodes?: (dstPath: string, paths: string[]) => void;
  onToggle: (path: string, open: boolean) => void;
  onOpen: () => void;
  children?: ReactNode;
};

/** One item of the tree: its open/close toggle, its icon and name, and its children below. */
const TreeRow = ({ path, name, level, expandable, open, selected, selectable = true, ...row }: RowProps) => {
  const { onDropNodes, onToggle } = row;
  const dragging = useDraggingNodes() > 0;
  const target = useNodeDropTarget(
    onDropNodes && row.dropEffect ? (paths) => onDropNodes(path, paths) : undefined,
    {
      effect: row.dropEffect ?? 'move',
      onOpen: onDropNodes && expandable && !open ? () => onToggle(path, true) : undefined,
    },
  );
  const inviting = row.invites && dragging && !target.over;
  // The item's children follow it rather than sit inside it: its name is then all the text it shows
  // (WCAG 2.5.3); the levels say which item holds which.
  return (
    <>
      <Box
        role="treeitem"
        aria-label={name}
        aria-level={level}
        aria-selected={selected}
        aria-expanded={expandable ? open : undefined}
        data-path={path}
        data-expandable={expandable}
        data-selectable={selectable}
        tabIndex={selected ? 0 : -1}
        style={{ outlineOffset: -2 }}
      >
        <Group
          gap={2}
          wrap="nowrap"
          pl={(level - 1) * 14}
          bg={target.over || selected ? 'var(--mantine-primary-color-light)' : undefined}
          data-drop-target={row.dropEffect && onDropNodes ? (target.over ? 'over' : 'ready') : undefined}
          style={{
            borderRadius: 4,
            outline: target.over
              ? '2px dashed var(--mantine-primary-color-filled)'
              : inviting
                ? '1px dashed var(--mantine-color-dimmed)'
                : undefined,
            outlineOffset: -2,
          }}
          {...target.props}
        >
          <UnstyledButton
            tabIndex={-1}
            aria-label={open ? `Collapse ${name}` : `Expand ${name}`}
            onClick={() => onToggle(path, !open)}
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
            onClick={row.onOpen}
            py={2}
            px={4}
            style={{ flex: 1, minWidth: 0 }}
          >
            <Group gap={6} wrap="nowrap">
              <Box c={row.dropEffect === 'copy' || !selectable ? 'teal.7' : 'yellow.7'} display="flex">
                {row.icon}
              </Box>
              <Text size="sm" truncate fw={selected ? 600 : undefined}>
                {name}
              </Text>
            </Group>
          </UnstyledButton>
        </Group>
      </Box>
      {row.children}
    </>
  );
};
