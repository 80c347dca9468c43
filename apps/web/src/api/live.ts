import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { showAlert } from '../ui/alerts.tsx';
import { apiFetch } from './client.ts';
import { createChannelManager, type LiveCallback } from './live-updates.ts';
import { appSettings } from './settings.ts';

let manager: ReturnType<typeof createChannelManager> | undefined;

/** Signing out waits this long at most for the event id to be given back (the server forgets idle ones anyway). */
const GIVE_BACK_TIMEOUT_MS = 5000;

/** Gives an event id back to the server; keepalive lets the request outlive the page. */
const deleteEvent = (eventId: string) => {
  const { csrfCookieName, csrfHeaderName } = appSettings();
  const token = document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${csrfCookieName}=`))
    ?.slice(csrfCookieName.length + 1);
  return fetch(`/api/events/${eventId}/delete`, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      ...(token ? { [csrfHeaderName]: decodeURIComponent(token) } : {}),
    },
    body: '{}',
    signal: AbortSignal.timeout(GIVE_BACK_TIMEOUT_MS),
  }).catch(() => undefined);
};

/** Before signing out: stop polling and give the event id back while the session still exists. */
export const stopLiveUpdates = async () => {
  const current = manager;
  manager = undefined;
  const eventId = current?.stop();
  if (eventId) await deleteEvent(eventId);
};

const channelManager = () => {
  if (!manager) {
    const created = createChannelManager({
      request: apiFetch,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      reportError: (text) => showAlert({ type: 'danger', text, source: 'live-updates', permanent: true }),
    });
    manager = created;
    // The event id is given back when the page goes away.
    window.addEventListener('pagehide', () => {
      const eventId = created.stop();
      if (eventId) void deleteEvent(eventId);
    });
  }
  return manager;
};

/** Calls back with each change on the channel (a collection response names it) while mounted. */
export const useLiveChannel = (channel: string | undefined, onUpdate: LiveCallback) => {
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    if (!channel) return;
    return channelManager().subscribe(channel, (data) => latest.current(data));
  }, [channel]);
};

/** Keeps a query fresh: any change on its channel refetches it. */
export const useLiveRefresh = (channel: string | undefined, queryKey: QueryKey) => {
  const queryClient = useQueryClient();
  const key = useRef(queryKey);
  key.current = queryKey;
  useLiveChannel(channel, () => void queryClient.invalidateQueries({ queryKey: key.current }));
};
