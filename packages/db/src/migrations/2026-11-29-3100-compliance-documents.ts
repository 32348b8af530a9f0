import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 45 (decision 1010): compliance on evidence. An installer uploads its insurance certificate
// and contractor licence as files (PDF, PNG or JPEG, at most 10 MB, kept here as bytea so a backup
// carries them, with their SHA-256 and size); an owner or reviewer verifies or rejects each. The
// job-offer gate (installer_gate_ok, same name and signature) now reads only VERIFIED documents:
// the current agreement of the tier signed, a verified insurance and a verified licence document
// expiring on or after p_on. The typed dates of dealer_compliance become pending documents without
// a file (`file_name` null): shown to the dealer and the admins, never verifiable until the dealer
// uploads the certificate, and never opening the gate. dealer_compliance stays as the legacy record
// (nothing writes or reads it any more).

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table compliance_documents (
    id uuid primary key default gen_random_uuid(),
    dealer_id uuid not null references dealers (id) on delete cascade,
    kind text not null check (kind in ('insurance', 'licence')),
    status text not null default 'pending' check (status in ('pending', 'verified', 'rejected')),
    expires_on date not null,
    file_name text,
    content_type text check (content_type in ('application/pdf', 'image/png', 'image/jpeg')),
    size_bytes integer check (size_bytes > 0 and size_bytes <= 10485760),
    sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
    content bytea,
    note text,
    rejection_reason text,
    reviewed_by text,
    reviewed_at timestamptz,
    created_at timestamptz not null default now(),
    check ((file_name is null) = (content is null) and (content is null) = (sha256 is null)
      and (content is null) = (content_type is null) and (content is null) = (size_bytes is null)),
    check (status <> 'verified' or content is not null),
    check ((status = 'rejected') = (rejection_reason is not null))
  )`.execute(db);
  // A dealer's documents of a kind, newest first (the checklist, the gate's probe, the reminders).
  await sql`create index compliance_documents_dealer_idx on compliance_documents (dealer_id, kind, created_at desc)`.execute(
    db,
  );
  // The admins' queue: pending documents, oldest first.
  await sql`create index compliance_documents_pending_idx on compliance_documents (created_at, id)
    where status = 'pending'`.execute(db);

  await sql`insert into compliance_documents (dealer_id, kind, expires_on, note, created_at)
    select dealer_id, 'insurance', insurance_expires_on,
      'Typed before documents were required: ' || insurer || ', certificate ' || insurance_cert_url, updated_at
    from dealer_compliance
    union all
    select dealer_id, 'licence', license_expires_on,
      'Typed before documents were required: licence ' || license_number || ' (' || license_state || ')', updated_at
    from dealer_compliance`.execute(db);

  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language plpgsql stable as $$
    declare
      ok boolean;
    begin
      select true into ok
      from dealers d
      join agreement_signatures s on s.dealer_id = d.id and s.tier = d.tier
      where d.id = p_dealer
        and s.version = (select max(v.version) from agreement_versions v where v.tier = d.tier)
        and exists (select 1 from compliance_documents c
          where c.dealer_id = d.id and c.kind = 'insurance' and c.status = 'verified' and c.expires_on >= p_on)
        and exists (select 1 from compliance_documents c
          where c.dealer_id = d.id and c.kind = 'licence' and c.status = 'verified' and c.expires_on >= p_on);
      return coalesce(ok, false);
    end
    $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language plpgsql stable as $$
    declare
      ok boolean;
    begin
      select true into ok
      from dealers d
      join dealer_compliance c on c.dealer_id = d.id
      join agreement_signatures s on s.dealer_id = d.id and s.tier = d.tier
      where d.id = p_dealer
        and c.insurance_expires_on >= p_on
        and c.license_expires_on >= p_on
        and s.version = (select max(v.version) from agreement_versions v where v.tier = d.tier);
      return coalesce(ok, false);
    end
    $$`.execute(db);
  await sql`drop table compliance_documents`.execute(db);
}
