import { Button, Menu } from '@mantine/core';
import {
  accountPath,
  displayName,
  type FormValues,
  type MediaNode,
  NODE_MESSAGES,
  type NotEnoughPublishData,
  PUBLISH_FOLDER_NAME,
} from '@media/contract';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useTransfer } from '../../api/nodes.ts';
import { usePublishButtons } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { PublishOptionsDialog } from '../../ui/dynamic-form/PublishOptionsDialog.tsx';

/** The options a button asked for, and the nodes still to be asked about, one dialog at a time. */
type Asking = { dstPath: string; data: NotEnoughPublishData; node: string; rest: string[] };

/**
 * Publish (spec3 §2 "Move, copy and publish"): the account's enabled publishing buttons; choosing one
 * publishes the selected media there (/{account}/Publish/{button}) and says so. A button that needs options
 * for each publish answers notEnoughPublishData: its dialog opens for each listed node, and the answer is
 * sent again as userPublishData (spec3 §4). Other refusals show as a warning.
 */
export const PublishMenu = ({
  accountId,
  accountName,
  nodes,
  disabled,
}: {
  accountId: number;
  accountName: string;
  nodes: MediaNode[];
  disabled: boolean;
}) => {
  const buttons = usePublishButtons({ scope: 'accounts', scopeId: accountId });
  const transfer = useTransfer();
  const [asking, setAsking] = useState<Asking | null>(null);
  const enabled = (buttons.data?.results ?? []).filter((button) => button.enabled);
  const media = nodes.length > 0 && nodes.every((node) => node.type !== 'folder' && node.mediaId !== null);
  if ((!media || enabled.length === 0) && !asking) return null;

  const send = (srcPath: string[], dstPath: string, userPublishData?: FormValues) =>
    transfer.mutateAsync({
      srcPath,
      dstPath,
      operation: 'publish',
      ...(userPublishData ? { userPublishData } : {}),
    });
  const askNext = (dstPath: string, data: NotEnoughPublishData, pending: string[]) => {
    const [node, ...rest] = pending;
    setAsking(node ? { dstPath, data, node, rest } : null);
  };
  const publish = async (buttonName: string) => {
    const dstPath = accountPath(accountName, `/${PUBLISH_FOLDER_NAME}/${buttonName}`);
    try {
      const result = await send(
        nodes.map((node) => node.path),
        dstPath,
      );
      showAlert({ type: 'info', text: result.message, source: 'nodes' });
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
    const result = await send([asking.node], asking.dstPath, values);
    showAlert({ type: 'info', text: result.message, source: 'nodes' });
    askNext(asking.dstPath, asking.data, asking.rest);
  };

  return (
    <>
      {media && enabled.length > 0 && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="xs" variant="default" disabled={disabled} loading={transfer.isPending}>
              Publish
            </Button>
          </Menu.Target>
          <Menu.Dropdown aria-label="Publishing buttons">
            <Menu.Label>
              Publish {nodes.length === 1 && nodes[0] ? displayName(nodes[0].name) : `${nodes.length} nodes`}{' '}
              with
            </Menu.Label>
            {enabled.map((button) => (
              <Menu.Item key={button.id} onClick={() => void publish(button.name)}>
                {button.name}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {asking && (
        <PublishOptionsDialog
          key={asking.node}
          opened
          title={`${asking.data.title}: ${displayName(asking.node.split('/').at(-1) ?? asking.node)}`}
          schema={asking.data.schema}
          onCancel={() => askNext(asking.dstPath, asking.data, asking.rest)}
          onPublish={answer}
        />
      )}
    </>
  );
};
