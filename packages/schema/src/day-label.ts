// A module of its own, without zod: the web's lazy pages that use it share only this (decision 0940, the shell's budget).
/** A calendar day (yyyy-mm-dd) as "Tuesday, Dec 1, 2026", or with `month: 'long'` "Tuesday, December 1, 2026". */
export const dayLabel = (day: string, month: 'short' | 'long' = 'short') =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    month,
    day: 'numeric',
    year: 'numeric',
  });
