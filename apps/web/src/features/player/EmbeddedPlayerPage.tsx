import { Badge, Box, Button, Group, Text } from '@mantine/core';
import { PLAYER_MESSAGES } from '@media/contract';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { timecode } from './player-frames.ts';
import { useEmbeddedPlayer } from './useEmbeddedPlayer.ts';

const EDITOR_BAR_HEIGHT = 40;
/** Below this width (a minimised window) the in and out controls would not fit: only the video shows. */
const EDITOR_BAR_MIN_WIDTH = 480;

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The embedded video player (spec3 §2: /accounts/{accountId}/reactvideoplayer?accountName=…), a page of its
 * own for the floating player's frame. It waits for loadSource from its parent; in the 'editor' controls
 * mode it offers 'Mark in' and 'Mark out' (keys I and O) for the clip the parent asks for.
 */
export const EmbeddedPlayerPage = () => {
  const { accountId } = useParams();
  const video = useRef<HTMLVideoElement>(null);
  const player = useEmbeddedPlayer(video, Number(accountId) || undefined);
  const editing = player.mode === 'editor';
  const roomy = (player.windowSize?.width ?? window.innerWidth) >= EDITOR_BAR_MIN_WIDTH;
  const { mark } = player;

  useEffect(() => {
    if (!editing) return;
    const onKey = (event: KeyboardEvent) => {
      if (typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'i' || event.key === 'I') mark('inFrame');
      else if (event.key === 'o' || event.key === 'O') mark('outFrame');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editing, mark]);

  const shown = (frame: number | null) => (frame === null ? '--:--:--:--' : timecode(frame, player.fps));

  return (
    <Box
      bg="black"
      style={{ position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column' }}
      data-testid="embedded-player"
      data-controls-mode={player.mode}
      data-live={player.live || undefined}
      data-window-size={
        player.windowSize ? `${player.windowSize.width}x${player.windowSize.height}` : undefined
      }
    >
      {player.live && (
        <Badge
          color="red"
          variant="filled"
          size="sm"
          style={{ position: 'absolute', top: 8, left: 8, zIndex: 1 }}
          data-testid="player-live"
        >
          {PLAYER_MESSAGES.liveBadge}
        </Badge>
      )}
      <video
        ref={video}
        src={player.src}
        controls
        preload="auto"
        playsInline
        style={{ flex: 1, minHeight: 0, width: '100%', background: 'black' }}
        data-testid="player-video"
        {...player.videoEvents}
      />
      {editing && roomy && (
        <Group
          h={EDITOR_BAR_HEIGHT}
          px="xs"
          gap="xs"
          wrap="nowrap"
          bg="dark.7"
          data-testid="player-editor-controls"
        >
          <Button size="compact-sm" variant="default" onClick={() => mark('inFrame')} title="I">
            {PLAYER_MESSAGES.markIn}
          </Button>
          <Text size="xs" c="gray.3" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="player-in">
            {shown(player.marks.inFrame)}
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => mark('outFrame')} title="O">
            {PLAYER_MESSAGES.markOut}
          </Button>
          <Text size="xs" c="gray.3" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="player-out">
            {shown(player.marks.outFrame)}
          </Text>
          <Text
            size="xs"
            c="gray.5"
            ff="monospace"
            ml="auto"
            style={{ whiteSpace: 'nowrap' }}
            data-testid="player-position"
          >
            {timecode(player.currentFrame, player.fps)}
          </Text>
        </Group>
      )}
    </Box>
  );
};
