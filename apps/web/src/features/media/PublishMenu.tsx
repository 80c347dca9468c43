import { Button, Menu } from '@mantine/core';
import { displayName, type MediaNode, publishTargetPath } from '@media/contract';
import { usePublishButtons } from '../../api/publishing.ts';
import { usePublishTransfer } from './usePublishTransfer.tsx';

/**
 * Publish (spec3 §2 "Move, copy and publish"): the account's enabled publishing buttons; choosing one
 * publishes the selected media there (/{account}/Publish/{button}) and says so, the way a drop of the media
 * on the button in the tree does (usePublishTransfer: the options dialog per node when the button asks for
 * them). The menu is the keyboard's way to publish.
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
  const publisher = usePublishTransfer();
  const enabled = (buttons.data?.results ?? []).filter((button) => button.enabled);
  const media = nodes.length > 0 && nodes.every((node) => node.type !== 'folder' && node.mediaId !== null);
  if ((!media || enabled.length === 0) && !publisher.asking) return null;

  const publish = (buttonName: string) =>
    publisher.publish(
      nodes.map((node) => node.path),
      publishTargetPath(accountName, buttonName),
    );

  return (
    <>
      {media && enabled.length > 0 && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="xs" variant="default" disabled={disabled} loading={publisher.pending}>
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
      {publisher.dialog}
    </>
  );
};
