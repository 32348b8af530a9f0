import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { prerenderLanding } from './vite/prerender-landing';
import { prerenderLight } from './vite/prerender-light';
import { routeManifest } from './vite/route-manifest';

/** Writes .br and .gz beside every text asset so the server sends them precompressed. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir;
    },
    closeBundle() {
      // Also called after a failed build: let the build's own error be the one reported.
      if (!existsSync(outDir)) return;
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((f) => {
          const p = join(dir, f);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|map)$/.test(file) || file.endsWith('.map')) continue;
        const buf = readFileSync(file);
        if (buf.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(buf, { level: 9 }));
      }
    },
  };
}

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    prerenderLanding(),
    prerenderLight(),
    routeManifest(),
    precompress(),
  ],
  server: { proxy: { '/api': api, '/trpc': api, '/healthz': api } },
  build: {
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each route's code split into, so check-bundle.mjs can
    // weigh every page of each surface (site, portal, console) beyond the shell (decision 1142).
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    // Each lazy route's preload list is in the shell: its scripts in one order (by name), the lists
    // of routes that share most chunks (the console's sections) repeat and compress to little
    // (decision 0900). Style sheets keep their order: it is their cascade.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps) => [
        ...deps.filter((d) => d.endsWith('.css')),
        ...deps.filter((d) => !d.endsWith('.css')).sort(),
      ],
    },
    rollupOptions: {
      // light-app's export is what the light pages' scripts import by URL (decision 1160): entries keep
      // their exports (index and landing have none).
      preserveEntrySignatures: 'allow-extension',
      // index.html: the app's shell; the landing's script gets its page from prerenderLanding.
      input: {
        index: 'index.html',
        landing: 'src/landing/main.ts',
        // The app as the light pages' scripts load it; they are built apart (vite/prerender-light.ts).
        'light-app': 'src/light/app.ts',
      },
      // The router in one chunk: left to the automatic split, its modules scatter over several
      // small shell chunks as lazy routes start to share some of them (docs/decisions/0600).
      output: {
        codeSplitting: {
          groups: [
            { name: 'router', test: /[\\/]@tanstack[\\/](react-router|router-core)[\\/]/ },
            // TanStack Query likewise: left alone, it splits anew whenever a lazy page starts to share a
            // part of it (decision 0932). Not in the app shell (decision 1310): every page loads it beside
            // its own chunks (frame.tsx). `queryOptions` (an identity function the route loaders' options
            // use) stays out of the group, or the shell's route definitions would bring all of it back.
            { name: 'query', test: /[\\/]@tanstack[\\/](query-core|react-query)[\\/](?!.*[\\/]queryOptions\.js$)/ },
            // Mantine's core (provider, theme, Box, the styles API) with its hooks and the components
            // nearly every page draws with: one chunk instead of some thirty small ones, each named in the
            // shell's preload lists and each a request of its own on a page's first load (decision 1310).
            {
              name: 'mantine',
              includeDependenciesRecursively: false,
              test: /[\\/](clsx[\\/]|@mantine[\\/](hooks[\\/]esm[\\/](utils|use-(id|merged-ref|uncontrolled|isomorphic-effect|reduced-motion|did-update|force-update|media-query|window-event))[\\/]|core[\\/]esm[\\/](core[\\/]|components[\\/](Alert|Anchor|Button|Center|CloseButton|Container|Group|Loader|Paper|Stack|Text|Title|Transition|UnstyledButton)[\\/])))/,
            },
            // The REST client with the constants and the version note the landing's script reads, in one
            // chunk as before decision 1310: out of the shell, left alone they split into three small files.
            {
              name: 'api',
              includeDependenciesRecursively: false,
              test: /[\\/](src[\\/]shared[\\/]lib[\\/](api|app-version)\.ts|schema[\\/]src[\\/]constants\.ts)$/,
            },
            // The admin console's code in one chunk: its sections are child routes, each a lazy
            // import whose preload list (in the shell) would otherwise name every small chunk their
            // features split into (docs/decisions/0875).
            {
              name: 'admin',
              includeDependenciesRecursively: false,
              // With the schema modules the console's features import that no page outside it does: left
              // to a section's own chunk, they made a cycle (admin -> team -> admin) in which a section's
              // module-level `API_TOKEN_MESSAGES.create` could run before its chunk had (the Team section's
              // "Something went wrong" in one browser run of five). The CSV parser (the orders import) and
              // Mantine's NavLink (the console's navigation) are the console's alone: left out, they landed in
              // the Commissions section's and the layout's route chunks, which the console's chunk then imported
              // back (issue 48). The coverage map stays out: it is a lazy chunk with d3 (decision 1142).
              test: /[\\/](src[\\/]console[\\/](admin|claims|commissions|jobs(?![\\/]CoverageMap)|system|team|webhook|activity|scheduler|shared)[\\/]|schema[\\/]src[\\/](admin-|api-tokens|orders|payout-payees|csv)|@mantine[\\/]core[\\/]esm[\\/]components[\\/]NavLink[\\/])/,
            },
          ],
        },
      },
      // The shared schema package only declares zod schemas and constants, and zod's own
      // side-effect list keeps all of its core (JSON schema, locales) once anything imports it: a
      // module of either whose exports are unused may be dropped, so importing one constant or
      // one validator does not ship the rest of zod to the landing page (about 30 KB gzip).
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/](packages[\\/]schema|node_modules[\\/]zod)[\\/]/.test(id),
      },
    },
  },
});
