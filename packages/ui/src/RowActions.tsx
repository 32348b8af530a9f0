import { Button, type ButtonProps, Group } from '@mantine/core';

export interface RowAction {
  label: string;
  onClick: () => void;
  /** Red for what cancels, refunds or removes. */
  color?: ButtonProps['color'];
  variant?: ButtonProps['variant'];
  disabled?: boolean;
}

/** A table row's buttons, side by side and never wrapped. */
export function RowActions({ actions, size = 'xs' }: { actions: readonly RowAction[]; size?: ButtonProps['size'] }) {
  return (
    <Group gap={6} wrap="nowrap">
      {actions.map((a) => (
        <Button
          key={a.label}
          size={size}
          variant={a.variant ?? 'light'}
          color={a.color}
          disabled={a.disabled}
          onClick={a.onClick}
        >
          {a.label}
        </Button>
      ))}
    </Group>
  );
}
