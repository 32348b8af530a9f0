/** The coverage map's words (issue 47, item 7): where to recruit installers. */
export const COVERAGE_WORDS = {
  recruitTitle: 'Recruit here',
  recruitIntro: 'ZIP areas with requests waiting and no installer in range, most requests first.',
  allCovered: 'All requests are covered',
  allCoveredDetail: 'Every request has an installer in range: nothing is waiting for one.',
  areasTitle: 'Demand and coverage by ZIP area',
  area: (prefix: string) => `${prefix}xx`,
  invite: 'Invite installers',
  inviteLabel: (place: string) => `Invite installers around ${place}`,
  inviteSubject: (place: string) => `Installation jobs waiting around ${place}`,
  inviteBody: (place: string, zips: string, requests: number, url: string) =>
    `Hello,\n\nHomeowners around ${place} (ZIP ${zips}) have ${requests === 1 ? 'a request' : `${requests} requests`} for attic fan and insulation installations, and no installer covers them yet.\n\nApply as an Authorized or Preferred dealer to receive jobs there: ${url}\n\nThank you`,
  legendWaiting: 'Requests waiting, no installer in range',
  legendJobs: 'Jobs (size: how many)',
  legendReach: "An installer's reach",
  offeredTo: (installer: string) => `Offered to ${installer}`,
  timelineTitle: 'Job timeline',
  timelineOf: (place: string) => `Timeline of the job in ${place}`,
  noSteps: 'No steps yet.',
} as const;

/** Words people read for an audit event code (issue 47): `dealer.signed_up` -> "Dealer signed up", never the raw code. */
const ACRONYMS = new Set(['ach', 'api', 'csv', 'nec', 'pdf', 'tin', 'w9', 'url', 'sms']);
export function eventLabel(code: string): string {
  const words = code
    .toLowerCase()
    .split(/[._\s-]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
