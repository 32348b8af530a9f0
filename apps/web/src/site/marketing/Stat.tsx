import { Paper, Text } from '@mantine/core';
import classes from './marketing.module.css';

export function Stat({ value, label }: { value: string; label: string }) {
  return (
    <Paper withBorder p="md" className={classes.stat}>
      <div className={classes.statValue}>{value}</div>
      <Text size="sm" mt={4}>
        {label}
      </Text>
    </Paper>
  );
}
