// Zod-free: the dashboard's Jobs card and the homeowner's status page import these words (issue 47).
/**
 * What people read about a job (issue 47): the one way a phone, a time in someone's zone, a job's
 * "what" and a state's name are written, on screens and in emails alike.
 */

/** The US states and territories the job forms take, by their two-letter code. */
export const US_STATE_NAMES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  PR: 'Puerto Rico',
};

/**
 * The time zone most of a state's people live in (decision 1061): an installer's deadline is written
 * in the zone of their service area's state. States split between two zones take the larger part's.
 */
const CENTRAL = ['AL', 'AR', 'IL', 'IA', 'KS', 'LA', 'MN', 'MS', 'MO', 'NE', 'ND', 'OK', 'SD', 'TX', 'WI'];
const MOUNTAIN = ['CO', 'MT', 'NM', 'UT', 'WY', 'ID'];
const PACIFIC = ['CA', 'NV', 'OR', 'WA'];
export function stateTimeZone(state: string | null | undefined): string {
  const s = (state ?? '').toUpperCase();
  if (s === 'AK') return 'America/Anchorage';
  if (s === 'HI') return 'Pacific/Honolulu';
  if (s === 'AZ') return 'America/Phoenix';
  if (s === 'PR') return 'America/Puerto_Rico';
  if (s === 'IN') return 'America/Indiana/Indianapolis';
  if (s === 'KY' || s === 'TN' || s === 'MI') return s === 'TN' ? 'America/Chicago' : 'America/New_York';
  if (CENTRAL.includes(s)) return 'America/Chicago';
  if (MOUNTAIN.includes(s)) return s === 'ID' ? 'America/Boise' : 'America/Denver';
  if (PACIFIC.includes(s)) return 'America/Los_Angeles';
  return 'America/New_York';
}

/** An instant as people read it in `timeZone`: "Mon, Nov 30, 10:00 AM ET". */
export function formatWhen(instant: Date | string, timeZone: string): string {
  const d = typeof instant === 'string' ? new Date(instant) : instant;
  const part = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone, ...o }).format(d);
  const day = part({ weekday: 'short', month: 'short', day: 'numeric' });
  const time = part({ hour: 'numeric', minute: '2-digit' });
  const zone =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortGeneric' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  return `${day}, ${time} ${/^GMT(\+0)?$/.test(zone) ? 'UTC' : zone}`;
}

/**
 * A wall-clock day and time in `timeZone` ("2026-11-30", "10:00") as people read it:
 * "Mon, Nov 30, 10:00 AM ET" (issue 47: never "10:00 (America/New_York)").
 */
export function formatWallTime(date: string, time: string, timeZone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  if (Number.isNaN(wall)) return `${date} ${time}`;
  // The zone's offset at that moment, twice (a day on which the clocks change).
  const offset = (at: number) => {
    const p: Record<string, number> = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      })
        .formatToParts(new Date(at))
        .map((x) => [x.type, Number(x.value)]),
    );
    return Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0) - at;
  };
  let at = wall - offset(wall);
  at = wall - offset(at);
  return formatWhen(new Date(at), timeZone);
}

/** The zone as people read it: "ET", "PT", "AKT" (never the IANA name). */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortGeneric' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    return !zone || /^GMT(\+0)?$/.test(zone) ? 'UTC' : zone;
  } catch {
    return timeZone;
  }
}

/** A phone as people dial it: "(907) 555-0142" for a US number, else as stored. */
export function formatPhone(phone: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone.replace(/[^\d+]/g, ''));
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : phone;
}

/** A tel: link's target: the digits and a leading plus only. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** "1 fan", "2 fans". */
export const fansWord = (n: number) => `${n} ${n === 1 ? 'fan' : 'fans'}`;

/** What a job is, in a few words: "2 solar attic fans, 1,800 sq ft attic". */
export function jobWhat(job: { fans: number | null; atticSqFt: number | null }): string {
  const fans =
    job.fans === null || job.fans === undefined
      ? 'Solar attic fans or attic insulation (fans not counted yet)'
      : job.fans === 0
        ? 'Attic insulation (no fans)'
        : `${job.fans} solar attic ${job.fans === 1 ? 'fan' : 'fans'}`;
  return job.atticSqFt ? `${fans}, ${job.atticSqFt.toLocaleString('en-US')} sq ft attic` : fans;
}

/** The homeowner's side: what happens next, who to ask (issue 47, item 9). */
export const HOMEOWNER_WORDS = {
  what: 'solar attic fans and attic insulation',
  expectBy: (when: string) => `An installer near you will answer by ${when}.`,
  ifNobody:
    'If that installer cannot take it, we ask the next one near you at once. If nobody nearby can, our team finds one for you and emails you.',
  unrouted:
    'No installer near you is free right now. Our team is finding one for you and emails you as soon as one takes your request.',
  assigned: (company: string) => `${company} will call you to schedule the installation.`,
  questions: 'Questions about your installation?',
  replyToEmail: 'Reply to any of our emails about this request and our team will answer.',
  callInstaller: (company: string) => `Call ${company} about the day and the work.`,
} as const;

/**
 * The status page's "what happens next" lines (issue 47, item 9), the same in the app and the light
 * page: by when an installer answers (the open offer's deadline, in the home's zone), what if nobody
 * does, or who will call.
 */
export function homeownerNextLines(s: {
  status: string;
  state: string;
  answerBy?: string | null;
  installer: { company: string } | null;
}): string[] {
  if (s.status === 'offered' && s.answerBy) {
    return [HOMEOWNER_WORDS.expectBy(formatWhen(s.answerBy, stateTimeZone(s.state))), HOMEOWNER_WORDS.ifNobody];
  }
  if (s.status === 'unrouted') return [HOMEOWNER_WORDS.unrouted];
  if (s.installer && s.status === 'accepted') return [HOMEOWNER_WORDS.assigned(s.installer.company)];
  return [];
}

/** The dashboard's Jobs card (issue 47, item 2): what each action says. */
export const JOB_CARD_WORDS = {
  declineReasons: ['Schedule is full', 'Too far', 'Not the work we do'] as const,
  declineTitle: 'Decline this job?',
  declineBody: 'It goes to the next installer near the homeowner at once, and cannot be taken back.',
  declineConfirm: 'Decline job',
  declined: 'Offer declined',
  declinedMessage: 'It went to the next installer near the homeowner.',
  accepted: 'Job accepted',
  acceptedMessage: (name: string) => `Call ${name} to schedule the installation: their phone is in your jobs below.`,
  cancelTitle: 'Cancel this job?',
  cancelBody:
    'The homeowner is no longer waiting on you, and the job leaves your list of open work. Say why (the homeowner and our team read it).',
  cancelConfirm: 'Cancel job',
  cancelled: 'Job cancelled',
  scheduled: 'Installation scheduled',
  scheduledMessage: 'The homeowner got an email with the date and a calendar file.',
  installed: 'Marked installed',
  installedMessage: 'The homeowner got an email. Thank you!',
  failed: 'Not done',
  gone: 'This offer is no longer open: it was answered, or its time ran out.',
  keep: 'Keep the job',
} as const;

/** The installer's service area in one sentence (issue 47, item 3). */
export function serviceAreaSummary(a: {
  radiusMiles: number;
  weeklyCapacity: number;
  city: string | null;
  zipCode: string;
  paused: boolean;
  pausedUntil: string | null;
}): string {
  const where = `within ${a.radiusMiles} miles of ${a.city ?? a.zipCode}`;
  if (a.paused) return `Paused: you receive no job offers for now (your area: ${where}).`;
  const until = a.pausedUntil ? ` from ${a.pausedUntil}` : '';
  return `You receive jobs ${where}${until}; up to ${a.weeklyCapacity} a week.`;
}
