// Captures the SQL an endpoint really runs, from PostgreSQL's own log: the bench database is
// created with log_min_duration_statement = 0, one request is sent, and the statements logged
// for that database since are read back with their parameters. The baseline server replays
// exactly these statements, and the query plans in the results are of exactly these statements.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export const PG_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

export function logSize() {
  try {
    return statSync(PG_LOG).size;
  } catch {
    return null;
  }
}

function readFrom(offset) {
  const size = statSync(PG_LOG).size;
  const buf = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(PG_LOG, 'r');
  readSync(fd, buf, 0, buf.length, offset);
  closeSync(fd);
  return buf.toString('utf8');
}

const HEAD =
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \w+ \[(\d+)\] (\S+)@(\S+) (LOG|DETAIL|ERROR|STATEMENT|WARNING|HINT|CONTEXT):\s+(.*)$/;

function records(text, database) {
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const m = HEAD.exec(line);
    if (m) {
      cur = m[3] === database ? { pid: m[1], kind: m[4], text: m[5] } : null;
      if (cur) out.push(cur);
    } else if (cur && line.startsWith('\t')) {
      cur.text += `\n${line.slice(1)}`;
    }
  }
  return out;
}

function parseParams(detail) {
  const params = [];
  for (const m of detail.matchAll(/\$(\d+) = (NULL|'((?:[^']|'')*)')/g)) {
    params[Number(m[1]) - 1] = m[2] === 'NULL' ? null : m[3].replaceAll("''", "'");
  }
  return params;
}

/** The statements (sql + params) a database ran since `offset`, in order, without transaction control. */
export function statementsSince(offset, database) {
  const recs = records(readFrom(offset), database);
  const out = [];
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    if (r.kind !== 'LOG') continue;
    const m = /^duration: [\d.]+ ms {2}(?:execute [^:]*|statement): ([\s\S]*)$/.exec(r.text);
    if (!m) continue;
    const sql = m[1].trim();
    if (/^(begin|commit|rollback|set |show |select 1$)/i.test(sql)) continue;
    const next = recs[i + 1];
    const params = next && next.kind === 'DETAIL' && next.text.startsWith('parameters:') ? parseParams(next.text) : [];
    out.push({ sql, params });
  }
  return out;
}

/**
 * Statements that belong to the framework, not to the endpoint's data: session and rate-limit
 * bookkeeping. The session read that brings the user along in the same statement
 * (docs/decisions/0504-one-statement-per-poll.md) is the endpoint's user read: it stays.
 */
export const isFramework = (s) =>
  /\b(from|into|update)\s+"?(sessions|rate_limits)"?\b/i.test(s.sql) && !/\bjoin\s+"?(dealers|admins)"?/i.test(s.sql);
