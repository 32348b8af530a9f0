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
export async function seedNetwork(c, { dealers, links, audits, calls }) {
  const t0 = Date.now();
  const linksN = Math.min(links, dealers);
  await c.query(`
    insert into dealers (id, tier, recruiter_id, referred_by, referral_type, full_name, company_name, email,
      phone_e164, address_json, entity_type, licensed_installers, crew_count, sales_reps, monthly_volume, crm_name,
      product_verticals, onboarding_call_ok, status, access_granted, approval_date, rejection_reason,
      total_orders, total_revenue, created_at, updated_at)
    select ${UUID('g')},
      (array['Affiliate','Affiliate','Affiliate','Authorized','Authorized','Preferred'])[1 + g % 6],
      case when g > ${linksN} and g % 3 = 0 then 'rec' || (1 + (g * 7919) % ${linksN}) end,
      case when g > ${linksN} and g % 3 = 0 then ${UUID(`1 + (g * 7919) % ${linksN}`)} end,
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
      'Bench event ' || g, jsonb_build_object('n', g), g % 50 <> 0, '10.0.' || (g % 250) || '.' || (g % 200),
      now() - g * interval '2 minutes'
    from generate_series(1, ${audits}) g`);
  await c.query(`
    insert into call_schedules (name, email, phone, preferred_date, preferred_time, status, created_at, updated_at)
    select 'Caller ' || g, 'caller' || g || '@bench.example.com', '+1555' || lpad(g::text, 7, '0'),
      to_char(current_date + (g % 60), 'YYYY-MM-DD'), (array['morning','afternoon','evening'])[1 + g % 3],
      (array['scheduled','scheduled','completed','cancelled'])[1 + g % 4],
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
  await c.query('vacuum analyze');
  const counts = (
    await c.query(
      `select (select count(*) from dealers)::int dealers, (select count(*) from affiliate_links)::int links,
      (select count(*) from audit_logs)::int audits, (select count(*) from call_schedules)::int calls,
      (select count(*) from dealers where referred_by = $1)::int bench_dealer_referrals`,
      [DEALER_ID(1)],
    )
  ).rows[0];
  return { ...counts, seconds: (Date.now() - t0) / 1000 };
}
