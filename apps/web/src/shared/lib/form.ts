import { fieldErrorsOf } from '@dn/schema';
import { useForm } from '@mantine/form';
import type { z } from 'zod';

/**
 * A Mantine form validator from a shared schema that shows the FIRST issue of each field, as
 * the server answers. (zod4Resolver keeps the last one, so an empty recruiter id would read
 * as the format rule instead of 'Please enter a recruiter ID'.)
 */
export function schemaResolver<T>(schema: z.ZodType) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    return result.success ? {} : fieldErrorsOf(result.error);
  };
}

/** An uncontrolled Mantine form validated by a shared schema (first issue per field). */
export function useSchemaForm<T extends Record<string, unknown>>(schema: z.ZodType, initialValues: T) {
  return useForm<T>({ mode: 'uncontrolled', initialValues, validate: schemaResolver<T>(schema) });
}
