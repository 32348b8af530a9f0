import { fieldErrorsOf } from '@dn/schema';
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
