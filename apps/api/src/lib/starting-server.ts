import http from 'node:http';
import { APP_VERSION } from '@dn/schema';

/**
 * What the port answers while the process migrates the database or waits for another instance's
 * migration (issue 46), before the app itself listens: `/healthz` 200 (the process is alive: an
 * orchestrator must not kill it for being slow to migrate), `/readyz` and every other path 503 with
 * Retry-After, so a load balancer sends the traffic to the instances that serve. Closed, with its
 * connections, just before the app listens on the same port.
 */
export async function startStartingServer(opts: {
  port: number;
  host: string;
  /** What the process is doing, in the answers' `message`. */
  phase: () => string;
}): Promise<{ close(): Promise<void> } | null> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: object) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
        ...(status === 503 ? { 'retry-after': '5' } : {}),
      });
      res.end(JSON.stringify(body));
    };
    if (path === '/healthz') json(200, { status: 'starting', version: APP_VERSION, message: opts.phase() });
    else json(503, { status: 'starting', message: `Starting: ${opts.phase()}. Try again in a few seconds.` });
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(opts.port, opts.host, () => resolve(true));
  });
  // A port taken now is the app's own error to report when it listens; nothing to answer with meanwhile.
  if (!listening) return null;
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
