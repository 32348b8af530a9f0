import { PasswordInput, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** A Mantine form whose values include the given string fields. */
type FormOf<K extends string> = UseFormReturnType<Record<K, string>>;

/**
 * One password-manager-friendly input per field, in order. `autoComplete` tells a password
 * manager what to fill: `username`, `current-password` (sign-in) or `new-password` (setup).
 */
export function PasswordFields<K extends string>({
  form,
  fields,
}: {
  form: FormOf<K>;
  fields: readonly {
    name: K;
    label: string;
    autoComplete: 'username' | 'current-password' | 'new-password';
    type?: 'email';
    description?: string;
  }[];
}) {
  return fields.map(({ name, label, autoComplete, type, description }) => {
    const Input = autoComplete === 'username' ? TextInput : PasswordInput;
    return (
      <Input
        key={form.key(name)}
        label={label}
        description={description}
        type={type}
        autoComplete={autoComplete}
        {...form.getInputProps(name)}
      />
    );
  });
}

/** The sign-in pair: who signs in (a dealer's email, an admin's username) and their password. */
export function SignInFields({
  form,
  usernameLabel,
  usernameType,
}: {
  form: FormOf<'username' | 'password'>;
  usernameLabel: string;
  usernameType?: 'email';
}) {
  return (
    <PasswordFields
      form={form}
      fields={[
        { name: 'username', label: usernameLabel, type: usernameType, autoComplete: 'username' },
        { name: 'password', label: 'Password', autoComplete: 'current-password' },
      ]}
    />
  );
}
