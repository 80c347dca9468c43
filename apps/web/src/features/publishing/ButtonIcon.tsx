import { Avatar } from '@mantine/core';
import { publishIconUrl } from '../../api/publishing.ts';

/** A button's icon as the server serves it (GET /api/publishIcons/{id}/image), or a plain square. */
export const ButtonIcon = ({ iconId }: { iconId: number | null }) =>
  iconId === null ? (
    <Avatar radius="sm" size={36} aria-label="No icon" color="gray">
      ▶
    </Avatar>
  ) : (
    <Avatar radius="sm" size={36} src={publishIconUrl(iconId)} alt="Button icon" data-testid="button-icon" />
  );
