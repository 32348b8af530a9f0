import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 35, findings 1 and 3 (docs/decisions/0880-one-mailbox-one-budget.md, 0630 amended).
//
// dealers.mailbox: the canonical mailbox of the email (lower-cased, a +tag removed, gmail.com and
// googlemail.com without dots and as gmail.com; `canonicalMailbox` of @dn/schema is the same rule),
// kept by a trigger on every insert and change of the email, and unique: one application per
// mailbox, settled by the index as `lower(email)` settled it before (concurrent signups too). A
// dealer stored before this migration whose mailbox another, older dealer already has keeps a null
// mailbox (the older one holds it), so the index can be built on any existing data.
//
// account_devices: the device cookies a sign-in set (decision 0630), one row per browser and
// account, by the SHA-256 of the cookie's random id; a cookie counts as a known device only while
// its row is there. Deleted with the account.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function dn_mailbox(address text) returns text
    language sql immutable strict parallel safe as $$
      select case when d in ('gmail.com', 'googlemail.com') then replace(l, '.', '') || '@gmail.com' else l || '@' || d end
      from (
        select case when position('+' in lp) > 1 then split_part(lp, '+', 1) else lp end as l, d
        from (
          select left(a, length(a) - position('@' in reverse(a))) as lp,
                 right(a, position('@' in reverse(a)) - 1) as d
          from (select lower(btrim(address)) as a) x
        ) y
      ) z
    $$`.execute(db);
  await sql`alter table dealers add column mailbox text`.execute(db);
  await sql`
    update dealers d set mailbox = c.m
    from (
      select id, m, row_number() over (partition by m order by created_at, id) as n
      from (select id, created_at, dn_mailbox(email) as m from dealers) x
    ) c
    where c.id = d.id and c.n = 1`.execute(db);
  await sql`
    create function dealers_set_mailbox() returns trigger language plpgsql as $$
    begin
      new.mailbox := dn_mailbox(new.email);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger dealers_mailbox before insert or update of email on dealers
    for each row execute function dealers_set_mailbox()`.execute(db);
  await sql`create unique index dealers_mailbox_key on dealers (mailbox)`.execute(db);

  await sql`
    create table account_devices (
      id_hash text primary key,
      account text not null,
      dealer_id uuid references dealers (id) on delete cascade,
      admin_id uuid references admins (id) on delete cascade,
      device text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now(),
      check ((dealer_id is null) <> (admin_id is null))
    )`.execute(db);
  await sql`create index account_devices_dealer_idx on account_devices (dealer_id, last_used_at) where dealer_id is not null`.execute(
    db,
  );
  await sql`create index account_devices_admin_idx on account_devices (admin_id, last_used_at) where admin_id is not null`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists account_devices`.execute(db);
  await sql`drop trigger if exists dealers_mailbox on dealers`.execute(db);
  await sql`drop function if exists dealers_set_mailbox()`.execute(db);
  await sql`drop index if exists dealers_mailbox_key`.execute(db);
  await sql`alter table dealers drop column if exists mailbox`.execute(db);
  await sql`drop function if exists dn_mailbox(text)`.execute(db);
}
