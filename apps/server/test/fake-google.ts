import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Google's side of a YouTube connection, on 127.0.0.1: the consent screen (which agrees at once and sends
 * the browser back with a code), the token endpoint (code and refresh-token grants), the channel list and
 * YouTube's resumable upload (POST to begin, PUT the bytes, PUT `bytes * /size` for the status). An upload
 * can be cut off after `cutAfterBytes` once, to exercise resuming.
 */
export const startFakeGoogle = async (options: { cutAfterBytes?: number } = {}) => {
  const state = {
    codes: new Map<string, string>(),
    refreshTokens: new Set<string>(),
    uploads: [] as { metadata: unknown; contentType: string; bytes: Buffer; id: string }[],
    sessions: new Map<string, { metadata: unknown; size: number; contentType: string; chunks: Buffer[] }>(),
    cutAfterBytes: options.cutAfterBytes,
    tokenCalls: [] as Record<string, string>[],
  };
  const received = (session: { chunks: Buffer[] }) => session.chunks.reduce((sum, c) => sum + c.length, 0);
  const read = (request: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
    });
  const json = (response: http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  let counter = 0;
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorised = request.headers.authorization?.startsWith('Bearer access-');
    if (url.pathname === '/auth') {
      const code = `code-${++counter}`;
      state.codes.set(code, url.searchParams.get('client_id') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() }).end();
    } else if (url.pathname === '/token' && request.method === 'POST') {
      const form = Object.fromEntries(new URLSearchParams((await read(request)).toString()));
      state.tokenCalls.push(form);
      if (form.client_secret !== 'google-secret') return json(response, 401, { error: 'invalid_client' });
      if (form.grant_type === 'authorization_code' && state.codes.has(form.code ?? '')) {
        state.codes.delete(form.code ?? '');
        const refresh = `refresh-${++counter}`;
        state.refreshTokens.add(refresh);
        return json(response, 200, { access_token: `access-${counter}`, refresh_token: refresh });
      }
      if (form.grant_type === 'refresh_token' && state.refreshTokens.has(form.refresh_token ?? ''))
        return json(response, 200, { access_token: `access-${++counter}` });
      json(response, 400, { error: 'invalid_grant' });
    } else if (url.pathname === '/youtube/v3/channels' && authorised) {
      json(response, 200, { items: [{ snippet: { title: 'Newsroom Channel' } }] });
    } else if (url.pathname === '/upload/youtube/v3/videos' && request.method === 'POST' && authorised) {
      const id = `session-${++counter}`;
      state.sessions.set(id, {
        metadata: JSON.parse((await read(request)).toString()),
        size: Number(request.headers['x-upload-content-length']),
        contentType: String(request.headers['x-upload-content-type']),
        chunks: [],
      });
      const address = server.address() as AddressInfo;
      response.writeHead(200, { location: `http://127.0.0.1:${address.port}/upload/session/${id}` }).end();
    } else if (url.pathname.startsWith('/upload/session/') && request.method === 'PUT') {
      const session = state.sessions.get(url.pathname.split('/').at(-1) ?? '');
      if (!session) return json(response, 404, { error: 'no such upload' });
      const range = String(request.headers['content-range'] ?? '');
      const complete = () => {
        const id = `video-${++counter}`;
        state.uploads.push({
          metadata: session.metadata,
          contentType: session.contentType,
          bytes: Buffer.concat(session.chunks),
          id,
        });
        json(response, 200, { id, kind: 'youtube#video' });
      };
      if (range.startsWith('bytes */')) {
        if (received(session) === session.size) return complete();
        const have = received(session);
        return response.writeHead(308, have > 0 ? { range: `bytes=0-${have - 1}` } : {}).end();
      }
      const start = Number(/bytes (\d+)-/.exec(range)?.[1] ?? -1);
      if (start !== received(session)) return json(response, 400, { error: 'bad range' });
      request.on('data', (chunk: Buffer) => {
        const cut = state.cutAfterBytes;
        if (cut !== undefined && received(session) + chunk.length > cut) {
          session.chunks.push(chunk.subarray(0, cut - received(session)));
          state.cutAfterBytes = undefined;
          request.socket.destroy();
          return;
        }
        session.chunks.push(chunk);
      });
      request.on('end', () => {
        if (received(session) === session.size) complete();
        else response.writeHead(308, { range: `bytes=0-${received(session) - 1}` }).end();
      });
    } else json(response, 404, { error: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    google: {
      clientId: 'google-client',
      clientSecret: 'google-secret',
      authUrl: `${base}/auth`,
      tokenUrl: `${base}/token`,
      youtubeApiUrl: base,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;
