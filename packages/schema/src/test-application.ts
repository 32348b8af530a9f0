/** A valid wizard submission, as a user types it: the schema tests start from it. */
export const TEST_APPLICATION = {
  tier: 'Affiliate',
  fullName: 'Jane Roe',
  email: 'jane@example.com',
  phoneE164: '5551234567',
  addressJson: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  referredBy: 'none',
  onboardingCallOk: true,
};
