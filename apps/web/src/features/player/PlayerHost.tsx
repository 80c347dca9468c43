import { PLAYER_MESSAGES } from '@media/contract';
import { useEffect } from 'react';
import { showAlert } from '../../ui/alerts.tsx';
import { FloatingPlayer } from './FloatingPlayer.tsx';
import { usePlayerMediaInfo } from './player-queries.ts';
import { closePlayer, type OpenPlayerRequest, usePlayer } from './player-store.ts';

/** Above the page and its menus, below dialogs and toasts. */
const PLAYER_LAYER_Z_INDEX = 190;

/**
 * Where the floating player shows: mount once inside the providers (Mantine, TanStack Query); any page then
 * opens the player with `openPlayer({ mediaId, name, path, accountId, accountName, start })`.
 */
export const PlayerHost = () => {
  const { player } = usePlayer();
  if (!player) return null;
  return (
    <div style={{ position: 'fixed', inset: 0, pointerEvents: 'none', zIndex: PLAYER_LAYER_Z_INDEX }}>
      <PlayerLoader key={player.key} request={player} />
    </div>
  );
};

/** Fetches the player media info; a failure shows spec3 §8's player error and closes the player. */
const PlayerLoader = ({ request }: { request: OpenPlayerRequest }) => {
  const info = usePlayerMediaInfo(request.mediaId);
  const { error } = info;
  useEffect(() => {
    if (!error) return;
    showAlert({ type: 'danger', text: PLAYER_MESSAGES.openFailed(error.message) });
    closePlayer();
  }, [error]);
  if (!info.data) return null;
  return <FloatingPlayer request={request} info={info.data} onClose={closePlayer} />;
};
