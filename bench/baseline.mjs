// The baseline: a bare Fastify server that answers each benchmarked endpoint by running the very
// statements the app ran for it (captured from PostgreSQL's log, see lib/capture.mjs) with `pg`,
// with no sessions, tRPC, validation or response shaping. Routes come from BASELINE_ROUTES (a JSON
// file of { name, statements: [{ sql, params }] }), each served at GET /b/<name>.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const routes = JSON.parse(readFileSync(process.env.BASELINE_ROUTES, 'utf8'));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/healthz', async () => ({ ok: true }));
for (const r of routes) {
  app.get(`/b/${r.name}`, async () => {
    const results = [];
    for (const s of r.statements) results.push((await pool.query(s.sql, s.params)).rows);
    return results.length === 1 ? results[0] : results;
  });
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
