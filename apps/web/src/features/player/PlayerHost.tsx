import { lazy, Suspense } from 'react';
import { usePlayer } from './player-store.ts';

/** The window, react-rnd and the player's calls load with the first player opened, not with the shell. */
const PlayerLoader = lazy(async () => ({ default: (await import('./PlayerLoader.tsx')).PlayerLoader }));

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
      <Suspense fallback={null}>
        <PlayerLoader key={player.key} request={player} />
      </Suspense>
    </div>
  );
};
