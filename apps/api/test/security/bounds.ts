import { z } from 'zod';

/**
 * Where a schema accepts unbounded input: strings without a maximum length, arrays without a
 * maximum size, maps without a key limit. Read from the schema's JSON Schema (input side).
 */
export function unboundedParts(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const found: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    const type = n.type;
    if (type === 'string' && n.maxLength === undefined && n.enum === undefined && n.const === undefined && !n.pattern) {
      found.push(`${path || '(root)'}: string without maxLength`);
    }
    if (type === 'array' && n.maxItems === undefined && !Array.isArray(n.prefixItems)) {
      found.push(`${path || '(root)'}: array without maxItems`);
    }
    if (
      type === 'object' &&
      n.additionalProperties &&
      typeof n.additionalProperties === 'object' &&
      n.maxProperties === undefined
    ) {
      found.push(`${path || '(root)'}: map without maxProperties`);
    }
    for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, path ? `${path}.${k}` : k);
    if (n.items) walk(n.items, `${path}[]`);
    if (n.additionalProperties && typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${path}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = n[key];
      if (Array.isArray(list)) for (const v of list) walk(v, path);
    }
  };
  walk(json, '');
  return found;
}
