import { z } from 'zod';
import type { RestRoute } from './index';

const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

/** The OpenAPI document of the REST table, from the same zod schemas the procedures parse with. */
export function openApiDocument(routes: RestRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const pathParams = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const parameters: unknown[] = [
      ...pathParams.map(pathParam),
      ...(r.headers ?? []).map((h) => ({
        name: h.name,
        in: 'header',
        required: true,
        description: h.description,
        schema: { type: 'string' },
      })),
    ];
    const schema =
      r.input && (z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.access],
      ...(r.access === 'public' ? { security: [] } : {}),
      parameters,
      responses: {
        '200': { description: r.responds ?? 'Success' },
        '400': ref('Invalid'),
        ...(r.access !== 'public' ? { '401': ref('Error'), '403': ref('Error') } : {}),
        '429': ref('Error'),
        ...Object.fromEntries(
          Object.entries(r.errors ?? {}).map(([status, description]) => [status, { description, ...error }]),
        ),
      },
    };
    if (schema && r.method === 'GET') {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        if (!pathParams.includes(name)) parameters.push({ name, in: 'query', required: required.has(name), schema: s });
      }
    } else if (schema) {
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    paths[r.url.replace(/:(\w+)/g, '{$1}')] = {
      ...paths[r.url.replace(/:(\w+)/g, '{$1}')],
      [r.method.toLowerCase()]: op,
    };
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
        Invalid: { description: 'Invalid input: message and fieldErrors in the words of the form', ...error },
        Error: { description: 'Error', ...error },
      },
    },
    security: [{ session: [] }],
    paths,
  };
}
