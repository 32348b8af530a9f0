import { SimpleGrid, TextInput } from '@mantine/core';

type AddressPath = 'addressJson.street' | 'addressJson.city' | 'addressJson.state' | 'addressJson.zipCode';

/**
 * The address inputs of the wizard and the dealer's profile: same labels, same autofill hints,
 * the rules and messages of the shared schema's `addressJson`. `inputProps` is the form's
 * `getInputProps`.
 */
export function AddressFields({ inputProps }: { inputProps: (path: AddressPath) => object }) {
  return (
    <>
      <TextInput
        label="Street address"
        withAsterisk
        autoComplete="street-address"
        {...inputProps('addressJson.street')}
      />
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <TextInput label="City" withAsterisk autoComplete="address-level2" {...inputProps('addressJson.city')} />
        <TextInput label="State" withAsterisk autoComplete="address-level1" {...inputProps('addressJson.state')} />
        <TextInput label="ZIP code" withAsterisk autoComplete="postal-code" {...inputProps('addressJson.zipCode')} />
      </SimpleGrid>
    </>
  );
}
