import { type DealerApplicationInput, WIZARD_STEPS } from '@dn/schema';
import type { UseFormReturnType } from '@mantine/form';

type Application = Required<DealerApplicationInput>;
type Counts = 'crewCount' | 'salesReps' | 'monthlyVolume';
type Selects = 'entityType' | 'crmName';

/**
 * What the wizard's fields hold: the shared schema's input (z.input of dealerApplication) with
 * every field present. Number boxes hold '' until typed (the schema parses them, so its input
 * type for them is unknown); a cleared select holds null.
 */
export type WizardValues = Omit<Application, Counts | Selects | 'addressJson'> & {
  addressJson: Required<Application['addressJson']>;
} & { [K in Counts]: number | string } & { [K in Selects]: Application[K] | null };

export type WizardForm = UseFormReturnType<WizardValues>;

export function initialValues(recruiterId: string | undefined): WizardValues {
  return {
    tier: 'Affiliate',
    fullName: '',
    companyName: '',
    email: '',
    phoneE164: '',
    addressJson: { street: '', city: '', state: '', zipCode: '', country: 'US' },
    entityType: '',
    licensedInstallers: false,
    crewCount: '',
    insuranceCertUrl: '',
    maintainInventory: false,
    salesReps: '',
    monthlyVolume: '',
    crmName: '',
    permittingCapable: false,
    homePerformance: false,
    productVerticals: [],
    onboardingCallOk: false,
    dealerAgreementUrl: '',
    logoUrl: '',
    recruiterId: recruiterId ?? '',
    referredBy: '',
  };
}

/** The payload for the shared schema (it parses numbers, drops other tiers' answers, normalises). */
export function toApplication(v: WizardValues): DealerApplicationInput {
  return {
    ...v,
    // Cleared selects hold null.
    entityType: v.entityType || undefined,
    crmName: v.crmName || undefined,
    recruiterId: v.recruiterId || undefined,
    referredBy: v.referredBy || undefined,
  };
}

export const STEP_COUNT = WIZARD_STEPS.length;

/** The step holding a field, so a server error can send the applicant back to it. */
export function stepOfField(path: string): number {
  const i = WIZARD_STEPS.findIndex((s) => (s.fields as readonly string[]).includes(path));
  return i < 0 ? STEP_COUNT - 1 : i;
}
