import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A console section's heading and body (each child route of routes/admin/_console/ renders one). */
export function AdminSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack>
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
