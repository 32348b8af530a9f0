import { type DealerApplicationInput, type Tier, WIZARD_STEPS } from '@dn/schema';
import type { UseFormReturnType } from '@mantine/form';

/** What the wizard's fields hold: numbers may be '' until typed, selects '' until chosen. */
export interface WizardValues {
  tier: Tier;
  fullName: string;
  companyName: string;
  email: string;
  phoneE164: string;
  addressJson: { street: string; city: string; state: string; zipCode: string; country: string };
  entityType: string;
  licensedInstallers: boolean;
  crewCount: number | string;
  insuranceCertUrl: string;
  maintainInventory: boolean;
  salesReps: number | string;
  monthlyVolume: number | string;
  crmName: string;
  permittingCapable: boolean;
  homePerformance: boolean;
  productVerticals: string[];
  onboardingCallOk: boolean;
  dealerAgreementUrl: string;
  logoUrl: string;
  recruiterId: string;
  referredBy: string;
}

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
    entityType: (v.entityType || undefined) as DealerApplicationInput['entityType'],
    crmName: (v.crmName || undefined) as DealerApplicationInput['crmName'],
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
