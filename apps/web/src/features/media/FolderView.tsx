import { Stack } from '@mantine/core';
import type { MediaNode } from '@media/contract';
import type { ReactNode } from 'react';
import { MetadataPanel } from './MetadataPanel.tsx';
import { NodeActions } from './NodeActions.tsx';

/** The actions above the children and the metadata of the node in focus (one selected row, else the folder). */
export const FolderView = ({
  folder,
  stale,
  selectedNodes,
  siteId,
  onSelectFolder,
  onTransferred,
  children,
}: {
  folder: MediaNode;
  stale: boolean;
  selectedNodes: MediaNode[];
  siteId: number | undefined;
  onSelectFolder: (path: string) => void;
  onTransferred: () => void;
  children: ReactNode;
}) => {
  const focus = selectedNodes.length === 1 && selectedNodes[0] ? selectedNodes[0] : folder;
  return (
    <Stack gap="sm">
      <NodeActions
        folder={folder}
        focus={focus}
        selectedNodes={selectedNodes}
        disabled={stale}
        siteId={siteId}
        onSelectFolder={onSelectFolder}
        onTransferred={onTransferred}
      />
      {children}
      <MetadataPanel node={focus} />
    </Stack>
  );
};
