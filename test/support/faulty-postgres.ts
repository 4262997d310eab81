import net from 'node:net';

/**
 * A TCP peer on 127.0.0.1 that speaks just enough of the PostgreSQL wire protocol to let a client in
 * (no password, ready for queries), then fails the way a real server does under a fault:
 * - `hang-on-connect`: accepts the connection and never answers (a hung or overloaded server);
 * - `hang-on-query`: answers the start-up, then never answers a query (a stopped backend);
 * - `drop-on-query`: answers the start-up, then closes the connection at the first query (a terminated
 *   backend or a server that stops).
 */
export async function startFaultyPostgres(mode: 'hang-on-connect' | 'hang-on-query' | 'drop-on-query') {
  const sockets = new Set<net.Socket>();
  let queries = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (mode === 'hang-on-connect') return;
    let started = false;
    socket.on('data', () => {
      if (!started) {
        started = true;
        // AuthenticationOk, then ReadyForQuery (idle).
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]));
        return;
      }
      queries++;
      if (mode === 'drop-on-query') socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgres://nobody@127.0.0.1:${port}/none`,
    get queries() {
      return queries;
    },
    get connections() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
