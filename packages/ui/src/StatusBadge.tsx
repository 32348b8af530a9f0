import { Badge, type BadgeProps } from '@mantine/core';

/**
 * A status as a light badge in the colour its screen gives it (gray for one it does not list).
 * The text is the status itself, as the API spells it.
 */
export function StatusBadge<S extends string>({
  status,
  colors,
  ...props
}: { status: S; colors: Partial<Record<S, string>> } & Omit<BadgeProps, 'color' | 'children'> & {
    'data-testid'?: string;
  }) {
  return (
    <Badge variant="light" color={colors[status] ?? 'gray'} {...props}>
      {status}
    </Badge>
  );
}
