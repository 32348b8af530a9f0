import { type Kysely, type RawBuilder, sql } from 'kysely';

// Frozen: never import app code here.
// Migration 0950's update triggers found the changed rows by joining the statement's old and new
// rows. PL/pgSQL plans a trigger's statement once per connection, for the transition tables of the
// first statement that fires it: after a one-row update the join is a nested loop, kept for every
// later statement on that connection. At 1,000,000 dealers the bench seed's move of 47,619
// referrals, after a one-row update, was still running after minutes, rescanning one transition
// table (spilled to disk) for each row of the other. A changed row is now found by set
// differences of the columns the stats show (with the row's id), which are hashed or sorted, never
// rescanned: the new values not among the old give the new recruiters, the old not among the new
// the old ones, one each per changed row, as the join did. Only the update branch changes; down()
// puts 0950's back.

/** The recruiters an update concerns, found by set differences of `columns` (0970). */
const changedBySets = (recruiter: string, columns: string) =>
  sql.raw(`
  select ${recruiter} from (select ${columns} from new_rows except select ${columns} from old_rows) n
  union all
  select ${recruiter} from (select ${columns} from old_rows except select ${columns} from new_rows) o`);

/** The same, by 0950's join of the old and new rows. */
const changedByJoin = (recruiter: string, compared: string) =>
  sql.raw(`
  select unnest(array[o.${recruiter}, n.${recruiter}])
  from old_rows o join new_rows n on n.id = o.id
  where (${compared.replace(/(\w+)/g, 'o.$1')}) is distinct from (${compared.replace(/(\w+)/g, 'n.$1')})`);

const DEALER_COLUMNS = 'referred_by, full_name, email, tier, referral_type, created_at';
const LINK_COLUMNS = 'dealer_id, recruiter_id, affiliate_code';

async function replaceFunctions(
  // biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
  db: Kysely<any>,
  dealersChanged: RawBuilder<unknown>,
  linksChanged: RawBuilder<unknown>,
) {
  await sql`
    create or replace function referral_versions_dealers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select referred_by from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select referred_by from old_rows));
        delete from referral_versions where dealer_id in (select id from old_rows);
      else
        perform referral_versions_bump(array(${dealersChanged}));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function referral_versions_links() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select dealer_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select dealer_id from old_rows));
      else
        perform referral_versions_bump(array(${linksChanged}));
      end if;
      return null;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see replaceFunctions
export async function up(db: Kysely<any>): Promise<void> {
  await replaceFunctions(
    db,
    changedBySets('referred_by', `id, ${DEALER_COLUMNS}`),
    changedBySets('dealer_id', `id, ${LINK_COLUMNS}`),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see replaceFunctions
export async function down(db: Kysely<any>): Promise<void> {
  await replaceFunctions(db, changedByJoin('referred_by', DEALER_COLUMNS), changedByJoin('dealer_id', LINK_COLUMNS));
}
