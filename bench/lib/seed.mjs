// Seeds a large network with generate_series, in a handful of statements (seconds, not minutes).
// Ids are deterministic (dealer n has uuid 00000000-0000-4000-8000-<n in hex>), so referrals and
// links can point at dealers of the same statement without a lookup.
import argon2 from 'argon2';

export const DEALER_ID = (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const UUID = (expr) => `('00000000-0000-4000-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`;

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Carlos',
  'Karen',
  'Daniel',
  'Lisa',
  'Matthew',
  'Nancy',
  'Anthony',
  'Betty',
  'Mark',
  'Sandra',
  'Steven',
  'Ashley',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
];
const COMPANY = ['Attic Pros', 'Solar Works', 'Insulation Co', 'Energy Partners', 'Home Comfort', 'Roof & Fan'];
const arr = (xs) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;

export const BENCH_DEALER = { email: 'bench.dealer@example.com', password: 'bench-dealer-password' };

/** @param {import('pg').Client} c */
export async function seedNetwork(c, { dealers, links, audits, calls, orders = 0, commissions = 0 }) {
  const t0 = Date.now();
  const linksN = Math.min(links, dealers);
  await c.query(`
    insert into dealers (id, tier, recruiter_id, referred_by, referral_type, full_name, company_name, email,
      phone_e164, address_json, entity_type, licensed_installers, crew_count, sales_reps, monthly_volume, crm_name,
      product_verticals, onboarding_call_ok, status, access_granted, approval_date, rejection_reason,
      total_orders, total_revenue, created_at, updated_at)
    select ${UUID('g')},
      (array['Affiliate','Affiliate','Affiliate','Authorized','Authorized','Preferred'])[1 + g % 6],
      case when g > ${linksN} and g % 3 = 0 then 'rec' || (1 + (g::bigint * 7919) % ${linksN}) end,
      case when g > ${linksN} and g % 3 = 0 then ${UUID(`1 + (g::bigint * 7919) % ${linksN}`)} end,
      case when g > ${linksN} and g % 3 = 0 then (array['automatic','manual'])[1 + g % 2] end,
      (${arr(FIRST)})[1 + g % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}],
      (${arr(LAST)})[1 + (g / 7) % ${LAST.length}] || ' ' || (${arr(COMPANY)})[1 + g % ${COMPANY.length}],
      'dealer' || g || '@bench.example.com',
      '+1555' || lpad((g % 10000000)::text, 7, '0'),
      jsonb_build_object('street', g || ' Main St', 'city', 'Austin', 'state', 'TX', 'zipCode', '78701', 'country', 'US'),
      case when g % 6 >= 3 then 'LLC' end, g % 6 >= 3, case when g % 6 >= 3 then g % 9 end,
      case when g % 6 >= 3 then 1 + g % 5 end, case when g % 6 >= 3 then 100 + g % 5000 end,
      case when g % 6 >= 3 then 'HubSpot' end,
      array['Solar - Residential'], true,
      (array['pending','pending','approved','approved','approved','approved','active','rejected','inactive','suspended'])[1 + (g / 3) % 10],
      (g / 3) % 10 between 2 and 6,
      case when (g / 3) % 10 between 2 and 6 then now() - (g % 700) * interval '1 day' end,
      case when (g / 3) % 10 = 7 then 'Incomplete application' end,
      g % 40, (g % 40) * 1234.50,
      now() - (g * interval '9 minutes'), now() - (g * interval '9 minutes')
    from generate_series(1, ${dealers}) g`);
  await c.query(`
    insert into affiliate_links (recruiter_id, dealer_id, affiliate_code, total_referrals, created_at, updated_at)
    select 'rec' || g, ${UUID('g')}, 'code' || g, 0, now() - g * interval '30 minutes', now() - g * interval '30 minutes'
    from generate_series(1, ${linksN}) g`);
  await c.query(`
    update affiliate_links l set total_referrals = s.n
    from (select referred_by, count(*) n from dealers where referred_by is not null group by 1) s
    where s.referred_by = l.dealer_id`);
  await c.query(`
    insert into audit_logs (event_type, category, recruiter_id, dealer_id, message, details, success, ip_address, created_at)
    select (array['affiliate.url_capture','affiliate.cookie_set','dealer.signed_up','auth.signed_in','dealer.approved','dealer.status_changed'])[1 + g % 6],
      case when g % 6 < 2 then 'affiliate' when g % 6 = 3 then 'auth' else 'dealer' end,
      case when g % 6 < 3 then 'rec' || (1 + g % ${linksN}) end,
      ${UUID(`1 + (g * 31) % ${dealers}`)},
      'Bench event ' || g,
      -- Who did it, as audit.ts writes it: the admin of a decision, the account a sign-in named.
      jsonb_build_object('n', g) || case g % 6
        when 3 then jsonb_build_object('account', 'dealer' || (1 + g % ${dealers}) || '@bench.example.com')
        when 4 then jsonb_build_object('actor', 'admin' || (g % 5))
        when 5 then jsonb_build_object('actor', 'admin' || (g % 5))
        else '{}'::jsonb end,
      g % 50 <> 0, '10.0.' || (g % 250) || '.' || (g % 200),
      now() - g * interval '2 minutes'
    from generate_series(1, ${audits}) g`);
  // The calls as a running app holds them: a call today or tomorrow has had its reminder (the
  // sweep sends it 24 hours before the window). Seeded unreminded, hundreds came due at once when
  // the server started, and the sweep's stamps changed the Calls tab's version in the middle of the
  // polls (on 2026-11-30 04:29 UTC every If-None-Match of the cards and the Calls tab answered 200).
  await c.query(`
    insert into call_schedules (name, email, phone, preferred_date, preferred_time, status, reminder_sent_at,
      created_at, updated_at)
    select 'Caller ' || g, 'caller' || g || '@bench.example.com', '+1555' || lpad(g::text, 7, '0'),
      to_char(current_date + (g % 60), 'YYYY-MM-DD'), (array['morning','afternoon','evening'])[1 + g % 3],
      (array['scheduled','scheduled','completed','cancelled'])[1 + g % 4],
      case when g % 60 <= 1 then now() - interval '1 hour' end,
      now() - g * interval '10 minutes', now() - g * interval '10 minutes'
    from generate_series(1, ${calls}) g`);
  // The dealer the harness signs in as: dealer 1 owns link rec1 and has referrals.
  const hash = await argon2.hash(BENCH_DEALER.password, {
    type: argon2.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  await c.query(
    `update dealers set email = $1, password = $2, status = 'approved', access_granted = true, tier = 'Preferred' where id = $3`,
    [BENCH_DEALER.email, hash, DEALER_ID(1)],
  );
  const partner = orders > 0 ? await seedPartner(c, { dealers, links: linksN, orders, commissions }) : {};
  await c.query('vacuum analyze');
  // The seed's pages written out now, so the first measurements do not share the disk with the
  // checkpointer (at 1,000,000 dealers several GB; a run without this measured the first endpoint
  // during that write-out).
  await c.query('checkpoint');
  const counts = (
    await c.query(
      `select (select count(*) from dealers)::int dealers, (select count(*) from affiliate_links)::int links,
      (select count(*) from audit_logs)::int audits, (select count(*) from call_schedules)::int calls,
      (select count(*) from dealers where referred_by = $1)::int bench_dealer_referrals`,
      [DEALER_ID(1)],
    )
  ).rows[0];
  return { ...counts, ...partner, seconds: (Date.now() - t0) / 1000 };
}

/** The commission rule in force per tier (version 1): a percentage of every order, held 30 days. */
export const BENCH_RULES = [
  ['Affiliate', '10.00'],
  ['Authorized', '8.00'],
  ['Preferred', '5.00'],
];
const ORDER_ID = (expr) => `('00000000-0000-4000-9000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`;
const PAYOUT_ID = (expr) => `('00000000-0000-4000-a000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`;

/**
 * The partner program at scale (issue 13), after seedNetwork's dealers and links:
 * - a few power recruiters: about 1 in 7 referred dealers is re-pointed to one of dealers 1-20
 *   (the bench dealer is dealer 1), so some recruiters have hundreds of referrals and thousands
 *   of commissions while most have one or two;
 * - `orders` orders, only of `active` dealers (a first order is what makes an approved dealer
 *   active): `commissions` of them belong to referred dealers and each earns its recruiter one
 *   commission under the tier's rule (BENCH_RULES), the rest belong to unreferred dealers;
 *   2% cancelled and 1% refunded (their commission voided), placed over the last two years;
 * - commissions by age: within the 30-day hold pending, then approved for 90 days, older ones paid
 *   in monthly payout batches;
 * - each dealer's totals (total_orders, total_revenue, last_order_date, average_order_value) from
 *   its placed orders, as the app keeps them.
 * Rows are valid by construction, so the inserts skip the triggers (session_replication_role =
 * replica, the way pg_restore loads data): foreign-key checks, and the kept totals, which are
 * counted once at the end.
 */
async function seedPartner(c, { dealers, links, orders, commissions }) {
  const t0 = Date.now();
  const top = Math.min(20, links);
  await c.query(`
    update dealers set referred_by = ${UUID(`1 + (n.g / 210) % ${top}`)}, recruiter_id = 'rec' || (1 + (n.g / 210) % ${top})
    from (select g, ${UUID('g')} id from generate_series(1, ${dealers}) g where g > ${links} and g % 3 = 0 and (g / 3) % 7 = 0) n
    where dealers.id = n.id`);
  await c.query(
    'update affiliate_links l set total_referrals = (select count(*) from dealers d where d.referred_by = l.dealer_id)',
  );
  await c.query(`
    insert into commission_rules (tier, version, type, value, applies_to, months, hold_days, created_by, created_at)
    select t, 1, 'percent', v::numeric, 'all', null, 30, 'bench-admin', now() - interval '3 years'
    from (values ${BENCH_RULES.map(([t, v]) => `('${t}', '${v}')`).join(', ')}) r(t, v)
    on conflict (tier, version) do nothing`);
  // The dealers that order: active ones, referred (their orders earn commissions) or not.
  await c.query(`create temp table bench_buyers as
    select id, tier, referred_by, recruiter_id, referred_by is not null as referred,
      row_number() over (partition by referred_by is not null order by id) rn
    from dealers where status = 'active'`);
  await c.query('create index on bench_buyers (referred, rn)');
  const n = (
    await c.query(
      `select count(*) filter (where referred)::int r, count(*) filter (where not referred)::int u from bench_buyers`,
    )
  ).rows[0];
  const earning = n.r > 0 ? Math.min(commissions, orders) : 0;
  await c.query('set session_replication_role = replica');
  try {
    // Order g: a referred buyer for g <= earning, else an unreferred one (any buyer if there is none).
    const pick = (g, count) => `1 + ((${g})::bigint * 7919) % ${Math.max(1, count)}`;
    await c.query(`
      insert into orders (id, dealer_id, source, external_order_id, amount, currency, ordered_at, status, recorded_by, created_at, updated_at, status_at)
      select ${ORDER_ID('g')}, b.id,
        (array['webhook','webhook','webhook','webhook','webhook','webhook','webhook','import','import','admin'])[1 + g % 10],
        'SO-' || g, (100 + (g::bigint * 7717) % 900000 / 100.0)::numeric(12, 2), 'USD', o.ts,
        case when g % 100 < 2 then 'cancelled' when g % 100 = 2 then 'refunded' else 'placed' end,
        case when g % 10 = 9 then 'bench-admin' when g % 10 >= 7 then 'import' else 'webhook' end,
        o.ts, o.ts, o.ts
      from generate_series(1, ${orders}) g
      cross join lateral (select now() - ((g::bigint * 104729) % (730 * 1440)) * interval '1 minute' as ts) o
      join bench_buyers b on b.referred = (g <= ${earning} or ${n.u} = 0)
        and b.rn = case when g <= ${earning} or ${n.u} = 0 then ${pick('g', n.r)} else ${pick('g', n.u)} end`);
    // Monthly payout batches (paid on the 3rd) for the paid commissions.
    await c.query(`
      insert into payouts (id, status, minimum, total, recruiter_count, commission_count, reference, created_by, created_at, paid_by, paid_at)
      select ${PAYOUT_ID('m')}, 'paid', 50, 0, 0, 0, 'ACH-' || m, 'bench-admin', date_trunc('month', now()) - m * interval '1 month',
        'bench-admin', date_trunc('month', now()) - m * interval '1 month' + interval '2 days'
      from generate_series(2, 26) m`);
    // By age: pending within the hold, approved for the next 90 days, then paid in the batch of the
    // month two months after the order (m = months between then and now).
    await c.query(`
      insert into commissions (kind, recruiter_id, recruiter_dealer_id, referred_dealer_id, commission_type, amount, status,
        order_id, order_ref, rule_id, order_amount, ordered_at, hold_until, void_reason, approved_by, approved_at,
        payout_id, paid_at, created_at, updated_at)
      select 'commission', coalesce(b.recruiter_id, b.referred_by::text), b.referred_by, o.dealer_id, 'percent',
        round(o.amount * cr.value / 100, 2), s.status, o.external_order_id, o.id, cr.id, o.amount, o.ordered_at,
        o.ordered_at + interval '30 days',
        case when s.status = 'voided' then 'Order ' || o.status end,
        case when s.status in ('approved', 'paid') then 'bench-admin' end,
        case when s.status in ('approved', 'paid') then least(now(), o.ordered_at + interval '31 days') end,
        case when s.status = 'paid' then ${PAYOUT_ID('s.m')} end,
        case when s.status = 'paid' then date_trunc('month', now()) - s.m * interval '1 month' + interval '2 days' end,
        o.ordered_at, o.ordered_at
      from orders o
      join bench_buyers b on b.id = o.dealer_id and b.referred
      join commission_rules cr on cr.tier = b.tier and cr.version = 1
      cross join lateral (select
        case
          when o.status <> 'placed' then 'voided'
          when o.ordered_at > now() - interval '30 days' then 'pending'
          when o.ordered_at > now() - interval '120 days' then 'approved'
          else 'paid' end status,
        least(26, greatest(2, ((extract(year from now()) - extract(year from o.ordered_at + interval '60 days')) * 12
          + extract(month from now()) - extract(month from o.ordered_at + interval '60 days'))::int)) m) s`);
  } finally {
    await c.query('set session_replication_role = origin');
  }
  await c.query(`
    update payouts p set total = s.total, recruiter_count = s.recruiters, commission_count = s.n
    from (select payout_id, sum(amount) total, count(distinct recruiter_dealer_id)::int recruiters, count(*)::int n
          from commissions where payout_id is not null group by 1) s
    where s.payout_id = p.id`);
  await c.query(`
    update dealers d set total_orders = s.n, total_revenue = s.revenue, last_order_date = s.last,
      average_order_value = round(s.revenue / s.n, 2)
    from (select dealer_id, count(*)::int n, sum(amount) revenue, max(ordered_at) last
          from orders where status = 'placed' group by 1) s
    where d.id = s.dealer_id`);
  await c.query(`
    update dealers set total_orders = 0, total_revenue = 0, last_order_date = null, average_order_value = 0
    where status <> 'active' and total_orders <> 0`);
  // Columns and tables later migrations added, kept by the app as it records orders (if present).
  const has = async (table, column) =>
    (
      await c.query(
        'select count(*)::int n from information_schema.columns where table_name = $1 and ($2::text is null or column_name = $2)',
        [table, column],
      )
    ).rows[0].n > 0;
  if (await has('dealers', 'first_order_at'))
    await c.query(`update dealers d set first_order_at = s.first
      from (select dealer_id, min(ordered_at) first from orders group by 1) s where d.id = s.dealer_id`);
  // The inserts above ran without triggers: the Commissions tab's and the recruiters' kept totals
  // are counted once here.
  // Since migration 0860 the kept rows are keyed by what the next payout settles, too.
  const payable = (await has('commission_totals', 'payable'))
    ? { column: ', payable', value: ', ledger_payable(status, payout_id)' }
    : { column: '', value: '' };
  if (await has('commission_totals', null)) {
    await c.query('delete from commission_totals');
    await c.query(`insert into commission_totals (status, kind${payable.column}, shard, n, amount)
      select status, kind${payable.value}, 0, count(*), coalesce(sum(amount), 0) from commissions
      where recruiter_dealer_id is not null group by 1, 2${payable.column ? ', 3' : ''}`);
  }
  if (await has('recruiter_commission_totals', null)) {
    await c.query('delete from recruiter_commission_totals');
    await c.query(`insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind${payable.column}, shard, n, amount)
      select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind${payable.value}, 0, count(*), coalesce(sum(amount), 0)
      from commissions where recruiter_dealer_id is not null group by 1, 2, 3, 4${payable.column ? ', 5' : ''}`);
  }
  await c.query('drop table bench_buyers');
  const r = (
    await c.query(
      `select (select count(*) from orders)::int orders, (select count(*) from commissions)::int commissions,
        (select count(*) from commissions where recruiter_dealer_id = $1)::int bench_dealer_commissions,
        (select count(*) from commissions where status = 'pending')::int pending_commissions,
        (select max(n) from (select count(*) n from commissions group by recruiter_dealer_id) x)::int max_commissions_per_recruiter`,
      [DEALER_ID(1)],
    )
  ).rows[0];
  return { ...r, partnerSeconds: (Date.now() - t0) / 1000 };
}
