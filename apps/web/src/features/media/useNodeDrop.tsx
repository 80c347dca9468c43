import { type MediaNode, NODE_MESSAGES, type TransferOperation } from '@media/contract';
import { useState } from 'react';
import { useTransferTypes } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { TransferDialog } from './TransferDialog.tsx';
import { usePublishTransfer } from './usePublishTransfer.tsx';

type Source = Pick<MediaNode, 'path' | 'name'>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const sourceOf = (path: string, known: readonly Source[]): Source =>
  known.find((node) => node.path === path) ?? { path, name: path.split('/').at(-1) ?? path };

/**
 * Nodes dropped on a place of the tree (spec3 §4 Transfers): the server says what may be done with them there
 * (POST /api/nodesTransferType). A publishing button (/{account}/Publish/{button}) takes publishes: they run
 * as from the Publish menu. A folder opens Move or copy with it chosen; nothing allowed is a warning.
 */
export const useNodeDrop = ({
  known,
  onTransferred,
}: {
  /** The nodes shown, for the names of dropped ones. */
  known: readonly Source[];
  onTransferred: (operation: TransferOperation) => void;
}) => {
  const types = useTransferTypes();
  const publisher = usePublishTransfer();
  const [moving, setMoving] = useState<{ sources: Source[]; destination: string } | null>(null);

  const drop = async (dstPath: string, paths: string[]) => {
    const srcPath = paths.filter((path) => path !== dstPath);
    if (srcPath.length === 0) return;
    let operations: TransferOperation[];
    try {
      ({ operations } = await types.mutateAsync({ srcPath, dstPath }));
    } catch (error) {
      showAlert({
        type: 'warning',
        text: NODE_MESSAGES.fileOperationsFailed(messageOf(error)),
        source: 'nodes',
      });
      return;
    }
    if (operations.includes('publish')) await publisher.publish(srcPath, dstPath);
    else if (operations.length === 0)
      showAlert({ type: 'warning', text: NODE_MESSAGES.noOperations, source: 'nodes' });
    else setMoving({ sources: srcPath.map((path) => sourceOf(path, known)), destination: dstPath });
  };

  const dialogs = (
    <>
      {publisher.dialog}
      {moving && (
        <TransferDialog
          sources={moving.sources}
          startPath={moving.destination}
          chosen
          onDone={onTransferred}
          onClose={() => setMoving(null)}
        />
      )}
    </>
  );
  return { drop, dialogs, busy: types.isPending || publisher.pending };
};
