import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/** The referral link (PUBLIC_URL/?r=ID, built by the server) with a copy button. */
export function ShareLink({ url }: { url: string }) {
  return (
    <Group align="flex-end">
      <TextInput flex={1} label="Your referral link" value={url} readOnly aria-label="Your referral link" />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button
            color={copied ? 'teal' : undefined}
            onClick={() => {
              copy();
              notifications.show({
                title: 'Copied!',
                message: 'Your referral link is on the clipboard.',
                color: 'teal',
              });
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
