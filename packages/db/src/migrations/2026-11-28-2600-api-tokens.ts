import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 40: personal API tokens (docs/decisions/0980-personal-api-tokens.md). An owner's token for
// scripts, kept as the SHA-256 of its secret (shown once, at creation), with a scope, an expiry,
// its last use (written at most once a minute) and its revocation. It acts with the current role
// of the admin who made it, so it goes with the admin (on delete cascade).

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table api_tokens (
      id uuid primary key default gen_random_uuid(),
      admin_id uuid not null references admins (id) on delete cascade,
      name text not null check (length(name) between 1 and 80),
      scope text not null check (scope in ('read', 'read-write')),
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_tokens_admin_id on api_tokens (admin_id)`.execute(db);
  await sql`create index api_tokens_created_at on api_tokens (created_at desc, id)`.execute(db);
}
