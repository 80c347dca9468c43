import { MEDIA_ICON_BANK, type NodeType } from '@media/contract';
import { SpriteIcon } from '../../ui/SpriteIcon.tsx';

/** A node type's icon, from the media icon bank (/furniture/img/media-svgIcons.svg). */
export const NodeIcon = ({ type, size = 16 }: { type: NodeType; size?: number }) => (
  <SpriteIcon bank={MEDIA_ICON_BANK} graphic={type} size={size} />
);
