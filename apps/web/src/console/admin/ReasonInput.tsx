import { Textarea } from '@mantine/core';
import classes from './admin.module.css';

/** The rejection reason the applicant will read (one dealer or a whole selection); focused on open. */
export function ReasonInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Textarea
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      autosize
      minRows={3}
      className={classes.reasonInput}
      data-autofocus
    />
  );
}
