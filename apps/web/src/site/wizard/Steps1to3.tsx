import { CRM_NAMES, ENTITY_TYPES, INSTALLER_TIERS, TIERS, type Tier } from '@dn/schema';
import { Alert, Checkbox, Group, NumberInput, Radio, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { AddressFields } from '../../shared/components/AddressFields';
import { TIER_SUMMARIES } from '../shared/tiers';
import type { WizardForm } from './form';
import { ReferralPicker } from './ReferralPicker';
import classes from './wizard.module.css';

export function TierStep({ form }: { form: WizardForm }) {
  return (
    <Radio.Group label="Choose your dealer tier" withAsterisk {...form.getInputProps('tier')}>
      <Stack mt="xs" gap="xs">
        {TIERS.map((t) => (
          <Radio.Card key={t} value={t} className={classes.tierCard} data-testid={`tier-${t}`}>
            <Group wrap="nowrap" align="flex-start">
              <Radio.Indicator />
              <div>
                <Text fw={600}>{t}</Text>
                <Text size="sm" c="dimmed">
                  {TIER_SUMMARIES[t]}
                </Text>
              </div>
            </Group>
          </Radio.Card>
        ))}
      </Stack>
    </Radio.Group>
  );
}

export function BasicInfoStep({ form }: { form: WizardForm }) {
  const recruiterId = form.getValues().recruiterId;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Full name" withAsterisk autoComplete="name" {...form.getInputProps('fullName')} />
        <TextInput label="Company name" autoComplete="organization" {...form.getInputProps('companyName')} />
        <TextInput label="Email" type="email" withAsterisk autoComplete="email" {...form.getInputProps('email')} />
        <TextInput label="Phone" type="tel" withAsterisk autoComplete="tel" {...form.getInputProps('phoneE164')} />
      </SimpleGrid>
      <AddressFields inputProps={form.getInputProps} />
      {recruiterId ? (
        <Alert variant="light" title="Referral">
          You were referred through recruiter link <strong>{recruiterId}</strong>.
        </Alert>
      ) : (
        <ReferralPicker form={form} />
      )}
    </Stack>
  );
}

const isInstaller = (t: Tier) => INSTALLER_TIERS.includes(t);

export function BusinessStep({ form }: { form: WizardForm }) {
  const { tier } = form.getValues();
  if (!isInstaller(tier)) {
    return (
      <Alert variant="light" title="No installation needed">
        As an Affiliate you sell; installation is handled by our preferred dealer network at preferred pricing. Continue
        to the next step.
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Select
        label="Business entity type"
        withAsterisk
        data={[...ENTITY_TYPES]}
        placeholder="Choose one"
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('entityType')}
      />
      <Checkbox
        label="We have licensed installers"
        {...form.getInputProps('licensedInstallers', { type: 'checkbox' })}
      />
      <NumberInput
        label="Installation crews"
        min={0}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('crewCount')}
      />
      <TextInput
        label="Insurance certificate link"
        placeholder="https://"
        type="url"
        {...form.getInputProps('insuranceCertUrl')}
      />
      <Checkbox label="We maintain inventory" {...form.getInputProps('maintainInventory', { type: 'checkbox' })} />
    </Stack>
  );
}

export function SalesStep({ form }: { form: WizardForm }) {
  const required = isInstaller(form.getValues().tier);
  return (
    <Stack gap="sm">
      <NumberInput
        label="Sales representatives"
        withAsterisk={required}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('salesReps')}
      />
      <NumberInput
        label="Expected monthly volume (sq ft per month)"
        withAsterisk={required}
        min={0}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        {...form.getInputProps('monthlyVolume')}
      />
      <Select
        label="CRM you use"
        data={[...CRM_NAMES]}
        placeholder="Choose one"
        clearable
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('crmName')}
      />
    </Stack>
  );
}
