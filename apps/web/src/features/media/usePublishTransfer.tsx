import {
  displayName,
  type FormValues,
  NODE_MESSAGES,
  type NotEnoughPublishData,
  type TransferResult,
} from '@media/contract';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useTransfer } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { PublishOptionsDialog } from '../../ui/dynamic-form/PublishOptionsDialog.tsx';
import { rememberPublishes } from './recent-publishes.ts';

/** The options a button asked for, and the nodes still to be asked about, one dialog at a time. */
type Asking = { dstPath: string; data: NotEnoughPublishData; node: string; rest: string[] };

const nameOf = (path: string) => displayName(path.split('/').at(-1) ?? path);

/**
 * Publishing nodes with a button (spec3 §4 Transfers), the same from the Publish menu and from a drop on the
 * button in the tree: POST /api/nodesTransfer with operation publish to /{account}/Publish/{button}. A button
 * that needs options for each publish answers notEnoughPublishData: its dialog opens for each listed node and
 * the answer is sent again as userPublishData. Success is an info message and the items join the recent
 * publishes (their progress shows live); other refusals show as a warning.
 */
export const usePublishTransfer = () => {
  const transfer = useTransfer();
  const [asking, setAsking] = useState<Asking | null>(null);

  const send = (srcPath: string[], dstPath: string, userPublishData?: FormValues) =>
    transfer.mutateAsync({
      srcPath,
      dstPath,
      operation: 'publish',
      ...(userPublishData ? { userPublishData } : {}),
    });
  const published = (result: TransferResult, dstPath: string, srcPaths: string[]) => {
    showAlert({ type: 'info', text: result.message, source: 'nodes' });
    rememberPublishes(result.publishIds ?? [], { dstPath, nodeNames: srcPaths.map(nameOf) });
  };
  const askNext = (dstPath: string, data: NotEnoughPublishData, pending: string[]) => {
    const [node, ...rest] = pending;
    setAsking(node ? { dstPath, data, node, rest } : null);
  };

  const publish = async (srcPaths: string[], dstPath: string) => {
    try {
      published(await send(srcPaths, dstPath), dstPath, srcPaths);
    } catch (error) {
      if (error instanceof ApiError && error.code === NODE_MESSAGES.notEnoughPublishData && error.data) {
        const data = error.data as NotEnoughPublishData;
        askNext(dstPath, data, data.nodes);
        return;
      }
      showAlert({ type: 'warning', text: (error as Error).message, source: 'nodes' });
    }
  };
  const answer = async (values: FormValues) => {
    if (!asking) return;
    published(await send([asking.node], asking.dstPath, values), asking.dstPath, [asking.node]);
    askNext(asking.dstPath, asking.data, asking.rest);
  };

  const dialog = asking && (
    <PublishOptionsDialog
      key={asking.node}
      opened
      title={`${asking.data.title}: ${nameOf(asking.node)}`}
      schema={asking.data.schema}
      onCancel={() => askNext(asking.dstPath, asking.data, asking.rest)}
      onPublish={answer}
    />
  );
  return { publish, pending: transfer.isPending, asking: asking !== null, dialog };
};
