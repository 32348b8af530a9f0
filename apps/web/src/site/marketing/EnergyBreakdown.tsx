import { Stack, Text } from '@mantine/core';
import classes from './marketing.module.css';

/** SPEC section 2: the energy-use breakdown of a typical home (ranges, percent of the bill). */
const SHARES = [
  { label: 'Cooling and heating', low: 50, high: 60, tone: 'a' },
  { label: 'Appliances and lighting', low: 18, high: 22, tone: 'b' },
  { label: 'Water heating', low: 10, high: 12, tone: 'c' },
] as const;

/**
 * A plain CSS bar chart: each bar spans the low value, with the range up to the high value
 * shaded. The text values sit beside the bars, so screen readers and people read the same thing.
 */
export function EnergyBreakdown() {
  return (
    <figure className={classes.chart} aria-labelledby="energy-chart-title">
      <Text component="figcaption" id="energy-chart-title" fw={600} mb="sm">
        Where a home's energy goes
      </Text>
      <Stack gap="md" component="ul" className={classes.chartList}>
        {SHARES.map((s) => (
          <li key={s.label} className={classes.chartRow}>
            <div className={classes.chartLabel}>
              <span>{s.label}</span>
              <strong>
                {s.low}-{s.high}%
              </strong>
            </div>
            <div className={classes.chartTrack} aria-hidden="true">
              <div className={classes.chartBar} data-tone={s.tone} style={{ width: `${s.low}%` }} />
              <div className={classes.chartRange} data-tone={s.tone} style={{ width: `${s.high - s.low}%` }} />
            </div>
          </li>
        ))}
      </Stack>
      <Text size="xs" c="dimmed" mt="sm">
        Solid bar: low end of the range; lighter part: up to the high end.
      </Text>
    </figure>
  );
}
