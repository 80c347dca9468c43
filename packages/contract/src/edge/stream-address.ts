/** The RTMP application every push goes to: `rtmp://{edge}:{port}/live`, with the endpoint's stream key. */
export const RTMP_APP = 'live';

/** Stands for the edge server's address in a push URL while its "Address for streams" is not set. */
export const STREAM_ADDRESS_PLACEHOLDER = '{edge server address}';

/**
 * Where senders push a stream endpoint's stream (the endpoint page shows it): RTMP push to the URL with the
 * stream key, or an SRT caller to the listener's address. Undefined for endpoints nobody pushes to (an SRT
 * caller, an HLS pull, the test stream). `host` is the edge's "Address for streams".
 */
export const streamPushAddress = (
  typeId: string,
  options: Readonly<Record<string, unknown>>,
  host: string,
): { url: string; streamKey?: string } | undefined => {
  const at = host.trim() || STREAM_ADDRESS_PLACEHOLDER;
  const port = (value: unknown, fallback: number) => String(value ?? '').trim() || String(fallback);
  if (typeId === 'RtmpPushEndpoint')
    return {
      url: `rtmp://${at}:${port(options.port, 1935)}/${RTMP_APP}`,
      streamKey: String(options.streamKey ?? '').trim(),
    };
  if (typeId === 'SrtEndpoint' && options.mode !== 'caller')
    return { url: `srt://${at}:${port(options.port, 9000)}` };
  return undefined;
};
