// Imports run one way (docs/architecture.md):
//   server -> app -> transports (trpc, routers, rest, plugins) -> services -> context, lib, @dn/db, @dn/schema
// (context.ts and env.ts import nothing from services/: context-below-services)
// `pnpm lint:imports` (part of `pnpm lint`, so CI) fails on an import against this direction or on any cycle.
const API = '^apps/api/src/';
const TRANSPORTS = `${API}(trpc|routers|rest|plugins)/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the shared part into a lower layer.',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'nothing-imports-the-entry-points',
      severity: 'error',
      comment: 'server.ts starts the app and app.ts assembles it: nothing below may reach back up.',
      from: { path: API, pathNot: `${API}(server|cli/.+)\\.ts$` },
      to: { path: `${API}(app|server)\\.ts$` },
    },
    {
      name: 'services-below-transports',
      severity: 'error',
      comment: 'Services are transport-free: they see the Context (src/context.ts), never Fastify plugins or tRPC.',
      from: { path: `${API}(services/|context\\.ts$)` },
      to: { path: TRANSPORTS },
    },
    {
      name: 'context-below-services',
      severity: 'error',
      comment:
        'context.ts (and env.ts, which it carries) sit below the services: services import them, never the other way. A shape the Context carries is declared in context.ts and implemented by a service.',
      from: { path: `${API}(context|env)\\.ts$` },
      to: { path: `${API}services/` },
    },
    {
      name: 'plugins-know-no-procedures',
      severity: 'error',
      comment:
        'plugins/ (HTTP plumbing and the few hand-written routes) know no procedure: the routers and the REST table sit above them; they may take the route shape (rest/route.ts).',
      from: { path: `${API}plugins/` },
      to: { path: `${API}(trpc|routers|rest)/`, pathNot: `${API}rest/route\\.ts$` },
    },
    {
      name: 'lib-is-the-floor',
      severity: 'error',
      comment: 'lib/ holds small pure helpers: it imports nothing else of the app.',
      from: { path: `${API}lib/` },
      to: { path: API, pathNot: `${API}lib/` },
    },
    {
      name: 'sql-only-in-packages-db',
      severity: 'error',
      comment: 'Statements live in packages/db query modules; the app calls them and never builds SQL itself.',
      from: { path: '^apps/', pathNot: '\\.test\\.ts$|^apps/api/test/' },
      to: { path: 'node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment: 'packages/db and packages/schema import no workspace package and nothing from apps/.',
      from: { path: '^packages/(db|schema)/' },
      to: { path: '^(apps|packages)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'web-sees-no-server',
      severity: 'error',
      comment: 'The web app takes only the AppRouter type from the api, and never the database package.',
      from: { path: '^apps/web/' },
      to: { path: '^(apps/api/|packages/db/)', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|routeTree\\.gen\\.ts$' },
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
    combinedDependencies: true,
  },
};
