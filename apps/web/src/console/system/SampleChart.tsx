import { Text } from '@mantine/core';
import classes from './system.module.css';

const WIDTH = 600;
const HEIGHT = 120;
const DAY_MS = 24 * 3_600_000;

/**
 * One figure over the last 24 hours as a plain SVG line (issue 40): the samples the server keeps
 * every few minutes, from 24 hours before `now` (left) to `now` (right), 0 to the day's highest
 * value (bottom to top). No chart library: the console's chunk stays small.
 */
export function SampleChart({
  title,
  points,
  now,
  format = String,
}: {
  title: string;
  points: readonly { at: string; value: number }[];
  now: string;
  format?: (v: number) => string;
}) {
  const end = Date.parse(now);
  const start = end - DAY_MS;
  const max = Math.max(1, ...points.map((p) => p.value));
  const xy = points.map((p) => {
    const x = ((Date.parse(p.at) - start) / DAY_MS) * WIDTH;
    const y = HEIGHT - (p.value / max) * (HEIGHT - 4) - 2;
    return `${Math.max(0, Math.min(WIDTH, x)).toFixed(1)},${y.toFixed(1)}`;
  });
  const last = points.at(-1);
  return (
    <figure className={classes.chart} data-testid="system-chart">
      <figcaption>
        <Text size="sm" fw={500}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          latest sample {last ? format(last.value) : '—'} · highest{' '}
          {format(max === 1 && !points.some((p) => p.value) ? 0 : max)}
        </Text>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${title}, last 24 hours`}
        preserveAspectRatio="none"
      >
        <line x1="0" y1={HEIGHT - 1} x2={WIDTH} y2={HEIGHT - 1} className={classes.axis} />
        {xy.length === 1 && (
          <circle cx={xy[0]!.split(',')[0]} cy={xy[0]!.split(',')[1]} r="3" className={classes.dot} />
        )}
        {xy.length > 1 && <polyline points={xy.join(' ')} className={classes.line} />}
      </svg>
      <div className={classes.ticks}>
        <Text size="xs" c="dimmed">
          24 h ago
        </Text>
        <Text size="xs" c="dimmed">
          now
        </Text>
      </div>
      {points.length === 0 && (
        <Text size="xs" c="dimmed">
          No samples yet: one is taken every 5 minutes.
        </Text>
      )}
    </figure>
  );
}
