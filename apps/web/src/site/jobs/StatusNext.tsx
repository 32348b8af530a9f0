import { HOMEOWNER_WORDS as H, homeownerNextLines, type JobStatus } from '@dn/schema';
import { Card, Stack, Text, Title } from '@mantine/core';
import { EmailLink, PhoneLink } from '../../shared/jobs/contact';

interface Status {
  status: JobStatus;
  state: string;
  answerBy?: string | null;
  contactEmail?: string | null;
  installer: { company: string; phone: string } | null;
}

/**
 * The status page's "what happens next" (issue 47, item 9): by when an installer answers (the open
 * offer's deadline, in the home's zone), what if nobody does, and whom to ask.
 */
export function StatusNext({ s }: { s: Status }) {
  const next = homeownerNextLines(s);
  return (
    <Card withBorder data-testid="status-next">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {s.installer ? 'Your installer' : 'What happens next'}
        </Title>
        {s.installer && (
          <Text>
            {s.installer.company} · <PhoneLink phone={s.installer.phone} />
          </Text>
        )}
        {next.map((line) => (
          <Text key={line} size="sm">
            {line}
          </Text>
        ))}
        {s.installer && s.status !== 'installed' && s.status !== 'cancelled' && (
          <Text size="sm">{H.callInstaller(s.installer.company)}</Text>
        )}
        {s.contactEmail ? (
          <Text size="sm">
            {H.questions} Email our team at <EmailLink email={s.contactEmail} />.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            We email you at each step. Keep this page's link to come back at any time.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
