import { Button, Group, Text } from '@mantine/core';
import {
  displayName,
  joinPath,
  type MediaNode,
  NODE_MESSAGES,
  parentPathOf,
  pathSegments,
  splitAccountPath,
} from '@media/contract';
import { useState } from 'react';
import { useNodeMutations } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { NameDialog } from './NameDialog.tsx';
import { PermissionsDialog } from './PermissionsDialog.tsx';
import { PublishMenu } from './PublishMenu.tsx';
import { TransferDialog } from './TransferDialog.tsx';

const accountNameOf = (path: string) => splitAccountPath(path).accountName;

type Dialog = 'newFolder' | 'rename' | 'transfer' | 'permissions' | null;

/**
 * The media manager's actions, each offered only when the node's access allows it: New folder (edit
 * here), Rename (edit the node; never the account's root), Move or copy (selected nodes; the server says
 * which operations a destination allows) and Folder permissions (manage).
 */
export const NodeActions = ({
  folder,
  focus,
  selectedNodes,
  disabled,
  siteId,
  onSelectFolder,
  onTransferred,
}: {
  folder: MediaNode;
  /** The node the single-node actions apply to: the one selected row, else the folder shown. */
  focus: MediaNode;
  selectedNodes: MediaNode[];
  disabled: boolean;
  siteId: number | undefined;
  onSelectFolder: (path: string) => void;
  onTransferred: () => void;
}) => {
  const [dialog, setDialog] = useState<Dialog>(null);
  const { create, rename } = useNodeMutations();
  const close = () => setDialog(null);

  const canCreate = folder.type === 'folder' && folder.access.canEdit;
  const canRename = focus.level > 0 && focus.access.canEdit;
  const canTransfer =
    selectedNodes.length > 0 && (folder.access.canEdit || selectedNodes.some((node) => node.access.canEdit));
  const canManage = focus.type === 'folder' && focus.access.canManage;

  const createFolder = async (name: string) => {
    await create.mutateAsync({ parentPath: folder.path, name });
    showAlert({
      type: 'success',
      text: NODE_MESSAGES.folderCreated(joinPath([...pathSegments(folder.path), name])),
      source: 'nodes',
    });
  };
  const renameFocus = async (name: string) => {
    const parent = parentPathOf(focus.path) ?? focus.path;
    await rename.mutateAsync({ path: focus.path, name });
    showAlert({ type: 'success', text: `${displayName(focus.name)} renamed to ${name}`, source: 'nodes' });
    // The folder shown was renamed: its address follows.
    if (focus.path === folder.path) onSelectFolder(joinPath([...pathSegments(parent), name]));
  };

  const canPublish = selectedNodes.length > 0;
  if (!canCreate && !canRename && !canTransfer && !canManage && !canPublish) return null;
  return (
    <Group gap="xs" role="toolbar" aria-label="Media actions">
      {canCreate && (
        <Button size="xs" disabled={disabled} onClick={() => setDialog('newFolder')}>
          New folder
        </Button>
      )}
      {canRename && (
        <Button size="xs" variant="default" disabled={disabled} onClick={() => setDialog('rename')}>
          Rename
        </Button>
      )}
      {canTransfer && (
        <Button size="xs" variant="default" disabled={disabled} onClick={() => setDialog('transfer')}>
          Move or copy
        </Button>
      )}
      <PublishMenu
        accountId={folder.accountId}
        accountName={accountNameOf(folder.path)}
        nodes={selectedNodes}
        disabled={disabled}
      />
      {canManage && (
        <Button size="xs" variant="default" disabled={disabled} onClick={() => setDialog('permissions')}>
          Folder permissions
        </Button>
      )}
      {selectedNodes.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="selected-count">
          {selectedNodes.length} selected
        </Text>
      )}
      {dialog === 'newFolder' && (
        <NameDialog
          title={`New folder in ${displayName(folder.name)}`}
          label="Folder name"
          confirmLabel="Create"
          onSubmit={createFolder}
          onClose={close}
        />
      )}
      {dialog === 'rename' && (
        <NameDialog
          title={`Rename ${displayName(focus.name)}`}
          label="New name"
          confirmLabel="Rename"
          initialName={focus.name}
          onSubmit={renameFocus}
          onClose={close}
        />
      )}
      {dialog === 'transfer' && (
        <TransferDialog
          sources={selectedNodes}
          startPath={folder.path}
          onDone={onTransferred}
          onClose={close}
        />
      )}
      {dialog === 'permissions' && <PermissionsDialog folder={focus} siteId={siteId} onClose={close} />}
    </Group>
  );
};
