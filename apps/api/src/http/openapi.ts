import { z } from 'zod';
import type { HttpRoute } from './route';

const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const string = { type: 'string' };
const errorProps = { message: string, fieldErrors: { type: 'object', additionalProperties: string } };
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: string });
type Header = NonNullable<HttpRoute['headers']>[number];
const headerParam = (h: Header) => ({ ...h, in: 'header', required: true, schema: string });

/** The OpenAPI document of the REST table, from the same zod schemas the procedures parse with. */
export function openApiDocument(routes: readonly HttpRoute[], version: string, publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const pathParams = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const parameters: unknown[] = [...pathParams.map(pathParam), ...(r.headers ?? []).map(headerParam)];
    const schema =
      r.input && (z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
    const op: Record<string, unknown> = {
      operationId: r.operationId ?? operationIdOf(r),
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
          Object.entries(r.errors ?? {}).map(([code, why]) => [code, { description: why, ...error }]),
        ),
      },
    };
    if (schema && r.method === 'GET') {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        if (!pathParams.includes(name)) parameters.push({ name, in: 'query', required: required.has(name), schema: s });
      }
    } else if (schema) {
      op.requestBody = {
        required: true,
        content: { [r.multipart ? 'multipart/form-data' : 'application/json']: { schema } },
      };
    }
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Dealer Network REST API', version },
    // Where the paths are served: the site's public origin (PUBLIC_URL), as every link is built.
    servers: [{ url: new URL(publicUrl).origin }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'dn.sid' },
        // A personal API token (decision 0980): an owner's, limited by its scope.
        apiToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (dnp_...) made by an owner' },
      },
      schemas: {
        Error: { type: 'object', properties: errorProps, required: ['message'] },
      },
      responses: {
        Invalid: { description: 'Invalid input: message and fieldErrors in the words of the form', ...error },
        Error: { description: 'Error', ...error },
      },
    },
    security: [{ session: [] }, { apiToken: [] }],
    paths,
  };
}

/** A route without a declared operationId (none in the table; a test checks): its method and path, stable. */
function operationIdOf(r: HttpRoute): string {
  const words = r.url
    .replace(/^\/api\//, '')
    .split(/[/:-]+/)
    .filter(Boolean);
  return [r.method.toLowerCase(), ...words].join('.');
}
