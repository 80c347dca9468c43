import { Box, Text } from '@mantine/core';
import { THUMBNAIL_RETRY_MS, THUMBNAIL_TICK_MS } from '@media/contract';
import { useEffect, useRef, useState } from 'react';

/** One timer for every auto-updating image on the page. */
const tickListeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

const onTick = (listener: () => void) => {
  tickListeners.add(listener);
  timer ??= setInterval(() => {
    for (const l of tickListeners) l();
  }, THUMBNAIL_TICK_MS);
  return () => {
    tickListeners.delete(listener);
    if (tickListeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

const withStamp = (src: string, stamp: number) =>
  stamp === 0 ? src : `${src}${src.includes('?') ? '&' : '?'}_t=${stamp}`;

type Props = {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Reload on every tick (an item that is ingesting grows its thumbnail). */
  live?: boolean;
};

/**
 * The auto-updating image of spec2 §2: on a one second tick it loads a fresh copy when live, and a failed
 * image is tried again once its 30 second window has passed. A fresh copy is loaded out of sight and only
 * then shown, so the picture never flickers.
 */
export const AutoUpdatingImage = ({ src, alt, width, height, live = false }: Props) => {
  const [shown, setShown] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const state = useRef({ loading: false, failedAt: 0, src, live });
  state.current.src = src;
  state.current.live = live;

  useEffect(() => {
    let cancelled = false;
    const load = (url: string) => {
      state.current.loading = true;
      const image = new Image();
      image.onload = () => {
        state.current.loading = false;
        if (cancelled) return;
        state.current.failedAt = 0;
        setFailed(false);
        setShown(url);
      };
      image.onerror = () => {
        state.current.loading = false;
        if (cancelled) return;
        state.current.failedAt = Date.now();
        setFailed(true);
      };
      image.src = url;
    };
    load(src);
    const stop = onTick(() => {
      const current = state.current;
      if (current.loading) return;
      const now = Date.now();
      if (current.failedAt > 0) {
        if (now - current.failedAt >= THUMBNAIL_RETRY_MS) load(withStamp(current.src, now));
      } else if (current.live) load(withStamp(current.src, now));
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [src]);

  return (
    <Box
      w={width}
      h={height}
      style={{
        borderRadius: 4,
        overflow: 'hidden',
        background: 'var(--mantine-color-default-hover)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        flex: 'none',
      }}
    >
      {shown ? (
        <img src={shown} alt={alt} width={width} height={height} style={{ objectFit: 'cover' }} />
      ) : (
        <Text size="xs" c="dimmed" aria-label={failed ? `${alt} unavailable` : `${alt} loading`}>
          {failed ? '—' : '…'}
        </Text>
      )}
    </Box>
  );
};
