import {
  ActionIcon,
  Box,
  Button,
  CloseButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  CLIP_EXPORT_MESSAGES,
  type ClipMarks,
  embeddedPlayerPath,
  PLAYER_DELAY_MS,
  PLAYER_MESSAGES,
  PLAYER_MIN_SIZE,
  PLAYER_MINIMISED_SIZE,
  PLAYER_WINDOW_OFFSET_X,
  PLAYER_WINDOW_OFFSET_Y,
  type PlayerCommand,
  type PlayerMediaInfo,
} from '@media/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Rnd } from 'react-rnd';
import { showAlert } from '../../ui/alerts.tsx';
import { ClipNamingDialog } from './ClipNamingDialog.tsx';
import { useClipExport } from './clip-export.ts';
import type { OpenPlayerRequest } from './player-store.ts';
import {
  fittedPlayerSize,
  initialPlayerPosition,
  initialPlayerSize,
  readPlayerEvent,
  readyCommands,
  type Size,
  sourceCommand,
  windowSize,
} from './player-window.ts';

/** A bar to minimise, a square to restore. */
const WindowIcon = ({ minimised }: { minimised: boolean }) => (
  <svg
    width="14"
    height="14"
    viewBox="0 0 14 14"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    {minimised ? <rect x="2" y="2" width="10" height="10" /> : <line x1="2" y1="11" x2="12" y2="11" />}
  </svg>
);

type Props = { request: OpenPlayerRequest; info: PlayerMediaInfo; onClose: () => void };

/** The side padding is half the horizontal offset; the title bar takes the rest of the vertical one. */
const SIDE = PLAYER_WINDOW_OFFSET_X / 2;
const TITLE_BAR = PLAYER_WINDOW_OFFSET_Y - SIDE;
const windowSizeCommand = (shown: Size): PlayerCommand => ({
  type: 'windowSize',
  width: shown.width - PLAYER_WINDOW_OFFSET_X,
  height: shown.height - PLAYER_WINDOW_OFFSET_Y,
});
const viewport = (): Size => ({ width: window.innerWidth, height: window.innerHeight });

/**
 * The floating player (spec3 §2, §4 Player): a draggable, resizable window titled with the media name that
 * frames the embedded player. After the frame loads it sends loadSource 1 s later and controlsMode 'editor'
 * 1 s after that; when the player is ready it fits the window and plays. Export asks the player for its in
 * and out points; the clipping it answers opens the clip naming dialog. Export of a clip played from its edl
 * first renders the clip into a playable file (useClipExport), then plays that file.
 */
export const FloatingPlayer = ({ request, info, onClose }: Props) => {
  const frame = useRef<HTMLIFrameElement>(null);
  const timers = useRef<number[]>([]);
  const [size, setSize] = useState<Size>(() => initialPlayerSize(info, viewport()));
  const [position, setPosition] = useState<{ x: number; y: number }>(() =>
    initialPlayerPosition(initialPlayerSize(info, viewport()), viewport()),
  );
  /** Until a person drags the window, it keeps to the top right as it fits its video. */
  const placed = useRef(false);
  const [minimised, setMinimised] = useState(false);
  const [moving, setMoving] = useState(false);
  const [clip, setClip] = useState<ClipMarks | null>(null);
  /** Why the media could not be played: the window says so and offers nothing that needs the media. */
  const [failure, setFailure] = useState<string | null>(null);
  const shown = windowSize(size, minimised);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const name = request.name ?? info.name;
  const start = request.start ?? info.start;
  /** A clip plays from its edl until its rendered file is asked for. */
  const [playingFile, setPlayingFile] = useState(false);

  const post = useCallback((command: PlayerCommand) => {
    frame.current?.contentWindow?.postMessage(command, window.location.origin);
  }, []);
  const clipExport = useClipExport(info, () => {
    setPlayingFile(true);
    showAlert({ type: 'info', text: CLIP_EXPORT_MESSAGES.rendered(name) });
    post({ type: 'loadSource', mediaId: info.mediaId, fps: info.edl?.fps });
  });
  const exportClip = () => {
    if (clipExport.isClip && !playingFile) clipExport.start();
    else post({ type: 'requestInOutPoints' });
  };

  const clearTimers = useCallback(() => {
    for (const timer of timers.current) window.clearTimeout(timer);
    timers.current = [];
  }, []);
  useEffect(() => clearTimers, [clearTimers]);

  const onFrameLoad = () => {
    clearTimers();
    const source = sourceCommand(info);
    if (!source) {
      setFailure(PLAYER_MESSAGES.mediaLoadFailed);
      showAlert({ type: 'danger', text: PLAYER_MESSAGES.openFailed(PLAYER_MESSAGES.mediaLoadFailed) });
      return;
    }
    timers.current.push(
      window.setTimeout(() => {
        post(source);
        timers.current.push(
          window.setTimeout(() => {
            post({ type: 'controlsMode', mode: 'editor' });
            post(windowSizeCommand(shownRef.current));
          }, PLAYER_DELAY_MS),
        );
      }, PLAYER_DELAY_MS),
    );
  };

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      const message = readPlayerEvent(event, frame.current?.contentWindow ?? null, window.location.origin);
      if (!message) return;
      if (message.type === 'jsplayerReady') {
        const video = {
          width: message.videoWidth || (info.proxyWidth ?? 0),
          height: message.videoHeight || (info.proxyHeight ?? 0),
        };
        setFailure(null);
        const fitted = fittedPlayerSize(video, viewport());
        setSize(fitted);
        if (!placed.current) setPosition(initialPlayerPosition(fitted, viewport()));
        for (const command of readyCommands(start)) post(command);
      } else if (message.type === 'errorLoadingMedia') {
        setFailure(message.reason);
        showAlert({ type: 'danger', text: PLAYER_MESSAGES.openFailed(message.reason) });
      } else {
        const { type: _type, ...marks } = message;
        setClip(marks);
      }
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [info, start, post]);

  // The player page learns the size of its video area, as the spec's windowSize message says.
  const { width, height } = shown;
  useEffect(() => post(windowSizeCommand({ width, height })), [post, width, height]);

  const minimum = minimised ? PLAYER_MINIMISED_SIZE : PLAYER_MIN_SIZE;
  return (
    <>
      <Rnd
        size={shown}
        position={position}
        minWidth={minimum.width}
        minHeight={minimum.height}
        bounds="parent"
        dragHandleClassName="floating-player-title"
        enableResizing={!minimised}
        onDragStart={() => setMoving(true)}
        onDragStop={(_event, where) => {
          setMoving(false);
          placed.current = true;
          setPosition({ x: where.x, y: where.y });
        }}
        onResizeStart={() => setMoving(true)}
        onResizeStop={(_event, _direction, element, _delta, where) => {
          setMoving(false);
          placed.current = true;
          setSize({ width: element.offsetWidth, height: element.offsetHeight });
          setPosition(where);
        }}
        style={{ pointerEvents: 'auto' }}
      >
        <Paper
          shadow="xl"
          withBorder
          radius="sm"
          h="100%"
          p={0}
          bg="dark.8"
          style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
          role="dialog"
          aria-label={name}
          data-testid="floating-player"
          data-minimised={minimised || undefined}
        >
          <Group
            className="floating-player-title"
            h={TITLE_BAR}
            px={SIDE * 2}
            gap="xs"
            wrap="nowrap"
            style={{ cursor: 'move', flexShrink: 0 }}
          >
            <Text c="gray.1" fw={600} size="sm" truncate="end" style={{ flex: 1 }} title={name}>
              {name}
            </Text>
            {info.exportEnabled && !minimised && clipExport.rendering && (
              <Group gap={6} wrap="nowrap" role="status" title={CLIP_EXPORT_MESSAGES.renderingHint}>
                <Loader size={12} color="gray.3" />
                <Text size="xs" c="gray.2">
                  {CLIP_EXPORT_MESSAGES.rendering}
                </Text>
              </Group>
            )}
            {info.exportEnabled && !minimised && !clipExport.rendering && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={exportClip}
                disabled={failure !== null}
                title={
                  failure !== null
                    ? PLAYER_MESSAGES.openFailed(failure)
                    : clipExport.isClip && !playingFile
                      ? CLIP_EXPORT_MESSAGES.exportHint
                      : undefined
                }
              >
                {PLAYER_MESSAGES.exportButton}
              </Button>
            )}
            <Tooltip label={minimised ? PLAYER_MESSAGES.restore : PLAYER_MESSAGES.minimise}>
              <ActionIcon
                variant="subtle"
                color="gray.3"
                aria-label={minimised ? PLAYER_MESSAGES.restore : PLAYER_MESSAGES.minimise}
                onClick={() => setMinimised((now) => !now)}
              >
                <WindowIcon minimised={minimised} />
              </ActionIcon>
            </Tooltip>
            <CloseButton aria-label={PLAYER_MESSAGES.close} onClick={onClose} c="gray.3" />
          </Group>
          <Box px={SIDE} pb={SIDE} pos="relative" style={{ flex: 1, minHeight: 0 }}>
            {failure !== null && !minimised && (
              <Stack
                pos="absolute"
                inset={0}
                align="center"
                justify="center"
                gap="xs"
                p="md"
                bg="dark.8"
                role="alert"
                data-testid="player-failure"
              >
                <Text c="gray.1" size="sm" ta="center">
                  {PLAYER_MESSAGES.openFailed(failure)}
                </Text>
                <Button size="compact-sm" variant="light" onClick={onClose}>
                  {PLAYER_MESSAGES.close}
                </Button>
              </Stack>
            )}
            <iframe
              ref={frame}
              src={embeddedPlayerPath(info.accountId, info.accountName)}
              title={name}
              onLoad={onFrameLoad}
              allow="autoplay; fullscreen"
              style={{
                width: '100%',
                height: '100%',
                border: 0,
                display: 'block',
                background: 'black',
                // A frame under the pointer would swallow the drag and resize moves.
                pointerEvents: moving ? 'none' : 'auto',
              }}
            />
          </Box>
        </Paper>
      </Rnd>
      <ClipNamingDialog marks={clip} mediaName={name} path={request.path} onClose={() => setClip(null)} />
    </>
  );
};
