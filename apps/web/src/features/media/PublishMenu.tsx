import { Button, Menu } from '@mantine/core';
import { accountPath, displayName, type MediaNode, PUBLISH_FOLDER_NAME } from '@media/contract';
import { useTransfer } from '../../api/nodes.ts';
import { usePublishButtons } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';

/**
 * Publish (spec3 §2 "Move, copy and publish"): the account's enabled publishing buttons; choosing one
 * publishes the selected media there (/{account}/Publish/{button}) and says so; the server's refusal (a role
 * that may not publish, a folder among the nodes) shows as a warning.
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
  const enabled = (buttons.data?.results ?? []).filter((button) => button.enabled);
  const media = nodes.length > 0 && nodes.every((node) => node.type !== 'folder' && node.mediaId !== null);
  if (!media || enabled.length === 0) return null;

  const publish = async (buttonName: string) => {
    try {
      const result = await transfer.mutateAsync({
        srcPath: nodes.map((node) => node.path),
        dstPath: accountPath(accountName, `/${PUBLISH_FOLDER_NAME}/${buttonName}`),
        operation: 'publish',
      });
      showAlert({ type: 'info', text: result.message, source: 'nodes' });
    } catch (error) {
      showAlert({ type: 'warning', text: (error as Error).message, source: 'nodes' });
    }
  };

  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" disabled={disabled} loading={transfer.isPending}>
          Publish
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label="Publishing buttons">
        <Menu.Label>
          Publish {nodes.length === 1 && nodes[0] ? displayName(nodes[0].name) : `${nodes.length} nodes`} with
        </Menu.Label>
        {enabled.map((button) => (
          <Menu.Item key={button.id} onClick={() => void publish(button.name)}>
            {button.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
};
