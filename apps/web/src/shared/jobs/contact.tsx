import { formatPhone, telHref } from '@dn/schema';
import { Anchor } from '@mantine/core';

/** A phone people can tap to call, written as they dial it (issue 47). */
export function PhoneLink({ phone }: { phone: string }) {
  return (
    <Anchor href={telHref(phone)} inherit underline="always">
      {formatPhone(phone)}
    </Anchor>
  );
}

/** An email address people can tap to write to. */
export function EmailLink({ email }: { email: string }) {
  return (
    <Anchor href={`mailto:${email}`} inherit underline="always">
      {email}
    </Anchor>
  );
}

/** The browser's own time zone: where the dashboard is read. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
