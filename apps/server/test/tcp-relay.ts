import net from 'node:net';

/**
 * A TCP relay in front of the PostgreSQL server, so that a test can make the server's connections go silent
 * as a lost link leaves them (a network fault, a frozen host or proxy): `freeze` stops carrying the bytes of
 * every connection open now, in both directions, and keeps both ends open; connections made afterwards are
 * carried as before.
 */
export const startRelay = async (databaseUrl: string) => {
  const target = new URL(databaseUrl);
  type Pair = { client: net.Socket; server: net.Socket; frozen: boolean };
  const pairs = new Set<Pair>();
  /** Set while the server cannot be reached: new connections are accepted and never answered. */
  let unreachable = false;
  const unanswered = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    if (unreachable) {
      client.pause();
      client.on('error', () => {});
      unanswered.add(client);
      return;
    }
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const pair: Pair = { client, server, frozen: false };
    pairs.add(pair);
    // A carried connection ends on both sides together; a frozen one tells neither side anything.
    const end = () => {
      if (pair.frozen) return;
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    for (const socket of [client, server]) socket.on('error', end).on('close', end);
    client.pipe(server);
    server.pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as net.AddressInfo).port);
  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.server.destroy();
  };
  /** Stops carrying every open connection; answers how many. */
  const freeze = () => {
    let count = 0;
    for (const pair of pairs) {
      if (pair.frozen) continue;
      pair.frozen = true;
      pair.client.unpipe();
      pair.server.unpipe();
      pair.client.pause();
      pair.server.pause();
      count++;
    }
    return count;
  };
  /** Closes the frozen connections (both ends), as a link that comes back finds them gone. */
  const dropFrozen = () => {
    for (const pair of pairs) if (pair.frozen) drop(pair);
  };
  return {
    url: url.toString(),
    freeze,
    dropFrozen,
    /** The server can no longer be reached: open connections go silent, new ones are never answered. */
    cutOff: () => {
      unreachable = true;
      freeze();
    },
    /** The server can be reached again; what was left silent meanwhile is closed. */
    restore: () => {
      unreachable = false;
      for (const socket of unanswered) socket.destroy();
      unanswered.clear();
      dropFrozen();
    },
    close: async () => {
      for (const pair of pairs) drop(pair);
      for (const socket of unanswered) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
};
