import { CALL_WINDOWS, focusValue, NO_REFERRAL, PRODUCT_FOCUS } from '@dn/schema';
import { Alert, Checkbox, Fieldset, List, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import type { WizardForm } from './form';
import { referrerLabel } from './ReferralPicker';
import classes from './wizard.module.css';

export function FocusStep({ form }: { form: WizardForm }) {
  const preferred = form.getValues().tier === 'Preferred';
  return (
    <Stack gap="sm">
      {preferred && (
        <Fieldset legend="Installation capabilities">
          <Stack gap="xs">
            <Checkbox label="We handle permitting" {...form.getInputProps('permittingCapable', { type: 'checkbox' })} />
            <Checkbox
              label="We offer home performance services"
              {...form.getInputProps('homePerformance', { type: 'checkbox' })}
            />
          </Stack>
        </Fieldset>
      )}
      <Checkbox.Group label="Product focus (choose any)" {...form.getInputProps('productVerticals')}>
        <Stack gap="sm" mt="xs">
          {PRODUCT_FOCUS.map((c) => (
            <Fieldset key={c.category} legend={c.category}>
              {c.groups.map((g) => (
                <Stack key={g.group ?? c.category} gap={4} mb="xs">
                  {g.group && (
                    <Text size="sm" fw={600}>
                      {g.group}
                    </Text>
                  )}
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6}>
                    {g.items.map((item) => (
                      <Checkbox key={item} value={focusValue(c, g, item)} label={item} size="sm" />
                    ))}
                  </SimpleGrid>
                </Stack>
              ))}
            </Fieldset>
          ))}
        </Stack>
      </Checkbox.Group>
    </Stack>
  );
}

export function AgreementsStep({ form }: { form: WizardForm }) {
  return (
    <Stack gap="sm">
      <Alert variant="light" title="Onboarding call">
        Approved dealers join a short onboarding call within 5 business days.
      </Alert>
      <Checkbox
        label="I agree to participate in the onboarding call"
        {...form.getInputProps('onboardingCallOk', { type: 'checkbox' })}
      />
      <TextInput
        label="Signed dealer agreement link (optional)"
        placeholder="https://"
        type="url"
        {...form.getInputProps('dealerAgreementUrl')}
      />
      <TextInput
        label="Company logo link (optional)"
        placeholder="https://"
        type="url"
        {...form.getInputProps('logoUrl')}
      />
    </Stack>
  );
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

export function ReviewStep({ form }: { form: WizardForm }) {
  const v = form.getValues();
  const installer = v.tier !== 'Affiliate';
  const referrer = v.recruiterId
    ? `Recruiter link ${v.recruiterId}`
    : v.referredBy === NO_REFERRAL
      ? 'No referral'
      : referrerLabel(v.referredBy ?? '');
  const rows: [string, string][] = [
    ['Tier', v.tier],
    ['Full name', v.fullName],
    ['Company', v.companyName || '-'],
    ['Email', v.email.trim().toLowerCase()],
    ['Phone', v.phoneE164],
    ['Address', [v.addressJson.street, v.addressJson.city, v.addressJson.state, v.addressJson.zipCode].join(', ')],
    ['Referral', referrer],
    ...(installer
      ? ([
          ['Entity type', v.entityType || '-'],
          ['Licensed installers', yesNo(v.licensedInstallers)],
          ['Installation crews', String(v.crewCount || 0)],
          ['Insurance certificate', v.insuranceCertUrl || '-'],
          ['Maintains inventory', yesNo(v.maintainInventory)],
        ] as [string, string][])
      : []),
    ['Sales representatives', String(v.salesReps || 0)],
    ['Monthly volume (sq ft)', String(v.monthlyVolume || 0)],
    ['CRM', v.crmName || '-'],
    ...(v.tier === 'Preferred'
      ? ([
          ['Permitting', yesNo(v.permittingCapable)],
          ['Home performance', yesNo(v.homePerformance)],
        ] as [string, string][])
      : []),
    ['Onboarding call', yesNo(v.onboardingCallOk)],
    ['Dealer agreement', v.dealerAgreementUrl || '-'],
    ['Logo', v.logoUrl || '-'],
  ];
  return (
    <Stack gap="sm">
      <Text size="sm">Please check your answers. This is what we will send:</Text>
      <Table withRowBorders={false} verticalSpacing={4} data-testid="wizard-review">
        <Table.Tbody>
          {rows.map(([k, val]) => (
            <Table.Tr key={k}>
              <Table.Th w="40%" fw={500}>
                {k}
              </Table.Th>
              <Table.Td className={classes.breakWord}>{val}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" fw={500}>
        Product focus
      </Text>
      {v.productVerticals.length ? (
        <List size="sm">
          {v.productVerticals.map((p) => (
            <List.Item key={p}>{p}</List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm" c="dimmed">
          None chosen
        </Text>
      )}
      <Text size="xs" c="dimmed">
        We review applications within 2-3 business days. Questions? Book a free call ({CALL_WINDOWS.morning.range},{' '}
        {CALL_WINDOWS.afternoon.range} or {CALL_WINDOWS.evening.range} ET).
      </Text>
    </Stack>
  );
}
