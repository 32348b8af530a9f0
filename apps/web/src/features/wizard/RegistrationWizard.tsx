import { Stack, Text } from '@mantine/core';

export interface RegistrationWizardProps {
  /** Called after a successful application (the caller closes its modal or switches tabs). */
  onDone?: () => void;
}

/** The 7-step dealer application (SPEC section 2). Placeholder until the steps land. */
export function RegistrationWizard(_props: RegistrationWizardProps) {
  return (
    <Stack>
      <Text>Dealer application</Text>
    </Stack>
  );
}
