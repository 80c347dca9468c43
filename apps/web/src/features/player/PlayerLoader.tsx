import { PLAYER_MESSAGES } from '@media/contract';
import { useEffect } from 'react';
import { showAlert } from '../../ui/alerts.tsx';
import { FloatingPlayer } from './FloatingPlayer.tsx';
import { usePlayerMediaInfo } from './player-queries.ts';
import { closePlayer, type OpenPlayerRequest } from './player-store.ts';

/** Fetches the player media info; a failure shows spec3 §8's player error and closes the player. */
export const PlayerLoader = ({ request }: { request: OpenPlayerRequest }) => {
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
