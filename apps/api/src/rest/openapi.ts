import { z } from 'zod';
import type { RestRoute } from './route';

/** The OpenAPI document of the REST adapter, generated from the same zod schemas it parses with. */
export function openApiDocument(routes: RestRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    const params = [...r.url.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const schema = r.input
      ? (z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>)
      : null;
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.access],
      ...(r.access === 'public' ? { security: [] } : {}),
      parameters: [...params],
      responses: {
        '200': { description: r.responds ?? 'Success' },
        '400': { $ref: '#/components/responses/Invalid' },
        ...(r.access !== 'public'
          ? { '401': { $ref: '#/components/responses/Error' }, '403': { $ref: '#/components/responses/Error' } }
          : {}),
        '429': { $ref: '#/components/responses/Error' },
      },
    };
    if (schema && r.method === 'GET') {
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, s] of Object.entries(props)) {
        if (params.some((p) => p.name === name)) continue;
        (op.parameters as unknown[]).push({ name, in: 'query', required: required.has(name), schema: s });
      }
    } else if (schema) {
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Dealer Network REST API', version },
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'dn.sid' } },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string' },
            fieldErrors: { type: 'object', additionalProperties: { type: 'string' } },
          },
          required: ['message'],
        },
      },
      responses: {
        Invalid: {
          description: 'Invalid input: message and fieldErrors in the words of the form',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        Error: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
    security: [{ session: [] }],
    paths,
  };
}
