import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a webhook receiver got. */
export type Received = {
  at: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed: Standard Webhooks' `{type, timestamp, data}`. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
};

/**
 * A webhook receiver on 127.0.0.1, as another system runs one: it records every POST and answers what
 * `answer` says (200 by default; `hang` never answers). `verified` checks a request with the
 * standardwebhooks library and the webhook's secret, as a receiver would.
 */
export const startWebhookReceiver = async () => {
  const received: Received[] = [];
  let answer: number | 'hang' = 200;
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      received.push({
        at: Date.now(),
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body,
        payload: JSON.parse(body || '{}'),
      });
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain', 'x-receiver': 'test' });
      response.end(answer < 300 ? 'thanks' : 'receiver broke');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answerWith: (status: number | 'hang') => {
      answer = status;
    },
    /** The requests of one event type. */
    ofType: (type: string) => received.filter((r) => r.payload.type === type),
    verified: (secret: string, request: Received) =>
      new Webhook(secret).verify(request.body, request.headers) as Received['payload'],
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
