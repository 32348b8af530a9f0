import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { clientPaths } from './client-paths';

/**
 * Writes dist/routes.json, `{ "paths": [...] }`: every page of the client router, so the server
 * answers each with the app's shell and 200 on a reload or bookmark, and nothing else (decision
 * 1070). Derived from the router's own route list: a new section cannot be forgotten.
 */
export function routeManifest(): Plugin {
  let root = '';
  return {
    name: 'route-manifest',
    apply: 'build',
    configResolved(c) {
      root = c.root;
    },
    generateBundle() {
      const paths = clientPaths(readFileSync(join(root, 'src/routeTree.gen.ts'), 'utf8'));
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: `${JSON.stringify({ paths }, null, 2)}\n` });
    },
  };
}
