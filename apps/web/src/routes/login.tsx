import { TOKEN_SHAPE } from '@dn/schema/messages';
import { Alert, Anchor, Button, Center, Container, Loader, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import {
  ForgotPasswordDialog,
  LoginForm,
  loginPageError,
  offersFreshLink,
  SessionEndedNotice,
  SetupPasswordForm,
} from '../shared/auth';

// The wizard is big: a dealer who only signs in never downloads it.
const RegistrationWizard = lazy(() => import('../site/wizard').then((m) => ({ default: m.RegistrationWizard })));

interface LoginSearch {
  token?: string;
  tab?: string;
  r?: string;
  error?: string;
  /** The job offer an emailed link opened (issue 47): the dashboard opens on it after sign-in. */
  offer?: string;
}

/**
 * Search values arrive JSON-parsed (?r=123 is a number): every one is read back as a string.
 * A plain function rather than a zod schema: route options ship with the landing page.
 */
const text = (v: unknown) =>
  v === undefined || v === null || typeof v === 'object' ? undefined : String(v).slice(0, 500);

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => {
    const out: LoginSearch = {};
    for (const key of ['token', 'tab', 'r', 'error', 'offer'] as const) {
      const value = text(search[key]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  },
  beforeLoad: ({ search }) => {
    // A link cut short by a mail client is known bad before anything is typed.
    if (search.token !== undefined && !TOKEN_SHAPE.test(search.token)) {
      throw redirect({ to: '/login', search: { error: 'invalid-magic-link' } });
    }
  },
  component: LoginPage,
});

type Tab = 'login' | 'dealer';

/**
 * SPEC section 2: password-setup if token (rendered on its own below); dealer if r or
 * tab=dealer; otherwise login.
 */
function initialTab(search: LoginSearch): Tab {
  return search.r || search.tab === 'dealer' ? 'dealer' : 'login';
}

function LoginPage() {
  const search = Route.useSearch();
  // The visitor's choice, else the rule: a dead link sending the page from ?token= to
  // ?error= lands on Sign In rather than on a tab that no longer exists.
  const [chosen, setChosen] = useState<Tab | null>(null);
  const tab = chosen ?? initialTab(search);
  const [forgotOpen, setForgotOpen] = useState(false);
  const freshLink = offersFreshLink(search.error);

  return (
    <Container size={search.token || tab !== 'dealer' ? 'xs' : 'md'} py="xl">
      <Stack>
        <Title order={1} ta="center">
          Dealer Portal
        </Title>
        {!search.token && <SessionEndedNotice />}
        {search.error !== undefined && !search.token && (
          <Alert color="red" title="Sign-in link problem" role="alert">
            <Stack gap="xs">
              <Text size="sm">{loginPageError(search.error)}</Text>
              {freshLink && (
                <Button size="xs" variant="white" color="red" w="fit-content" onClick={() => setForgotOpen(true)}>
                  Email me a fresh link
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        <Paper withBorder p="lg" radius="md">
          {search.token ? (
            <Tabs value="password-setup">
              <Tabs.List grow mb="md">
                <Tabs.Tab value="password-setup">Set Up Password</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="password-setup">
                <SetupPasswordForm token={search.token} />
              </Tabs.Panel>
            </Tabs>
          ) : (
            <Tabs value={tab} onChange={(v) => setChosen((v as Tab | null) ?? 'login')} keepMounted={false}>
              <Tabs.List grow mb="md">
                <Tabs.Tab value="login">Sign In</Tabs.Tab>
                <Tabs.Tab value="dealer">Dealer Registration</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="login">
                <LoginForm onForgot={() => setForgotOpen(true)} />
              </Tabs.Panel>
              <Tabs.Panel value="dealer">
                <Suspense
                  fallback={
                    <Center py="xl">
                      <Loader />
                    </Center>
                  }
                >
                  <RegistrationWizard onDone={() => setChosen('login')} />
                </Suspense>
              </Tabs.Panel>
            </Tabs>
          )}
        </Paper>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/admin/login">
            Admin login
          </Anchor>
          {' · '}
          <Anchor component={Link} to="/">
            Back to home
          </Anchor>
        </Text>
      </Stack>
      <ForgotPasswordDialog
        opened={forgotOpen}
        onClose={() => setForgotOpen(false)}
        intro={
          freshLink ? 'Enter the email address of your dealer account and we will email you a fresh link.' : undefined
        }
      />
    </Container>
  );
}
