// Imports run one way: down the layers of apps/api/src below (docs/architecture.md), never back up.
// `pnpm lint:imports` (part of `pnpm lint`, so CI) fails on an import that runs back up a layer, on an
// import between two layers of the same rank, and on any import circle.
const API = '^apps/api/src/';

/**
 * The layers of apps/api/src, top first: a file may import from the ranks below its own, never
 * from one above nor from a neighbour of its own rank. `name/` is a folder, `name.ts` a file.
 *   entry      server.ts (listens), cli/ (one-off commands), index.ts (the types clients import)
 *   app        app.ts: assembles the plugins and the routes; never listens
 *   http       every HTTP route (generated from the procedures or written by hand), /trpc, OpenAPI,
 *              and the one place their access is enforced
 *   routers    the procedures, one file per domain
 *   trpc       the procedure builders and their metadata (access, REST identity, versions)
 *   plugins    HTTP plumbing every route shares: session, request context, errors, ETags, headers
 *   services   behaviour, by domain (SERVICE_LAYERS below)
 *   access     the one access rule; context (what every service receives); env; lib (pure helpers)
 */
const LAYERS = [
  ['server.ts', 'cli/', 'index.ts'],
  ['app.ts'],
  ['http/'],
  ['routers/'],
  ['trpc/'],
  ['plugins/'],
  ['services/'],
  ['access.ts'],
  ['context.ts'],
  ['env.ts'],
  ['lib/'],
];

/**
 * The services' domains, top first, by the same rule: a domain uses the ranks below it (an order
 * records its commission; a dealer's status change is a review decision, which approves through
 * applications), never one above nor a neighbour.
 */
const SERVICE_LAYERS = [
  ['scheduler/'],
  ['jobs/'],
  ['orders/'],
  ['commissions/'],
  ['dealers/'],
  ['review/'],
  ['onboarding/', 'payees/', 'risk/'],
  ['applications/', 'calls/', 'content/', 'team/', 'affiliate/'],
  ['accounts/'],
  ['audit/', 'mail/', 'system/'],
];

/**
 * apps/web/src by the same rule (docs/architecture.md, decision 1140), top first: the entries (the page
 * scripts, the app and its router, the build-time render), the routes (TanStack file routes: they
 * compose a page), the three surfaces side by side (site: the public pages and the homeowner;
 * portal: the signed-in dealer; console: the admins), and shared/ (what all three use: the API
 * client, auth, components, hooks, formatting). A surface never imports another: what two need
 * moves down to shared/. routeTree.gen.ts (generated) is imported by app.tsx alone (below).
 */
const WEB = '^apps/web/src/';
const WEB_LAYERS = [
  ['main.tsx', 'landing/'],
  ['boot.tsx', 'prerender.tsx'],
  ['app.tsx', 'frame.tsx'],
  ['routes/'],
  ['site/', 'portal/', 'console/'],
  ['shared/'],
];

const nameOf = (member) => member.replace(/\/$|\.tsx?$/, '');
const pathOf = (prefix, member) => `${prefix}${member.replace('.', '\\.')}${member.endsWith('/') ? '' : '$'}`;

/**
 * One rule per pair: `<lower>-below-<upper>` refuses an import from the lower member up to the
 * upper one, `<a>-beside-<b>` one between two members of a rank.
 */
function layerRules(layers, prefix, tag = '') {
  const rules = [];
  const rule = (name, comment, from, to) =>
    rules.push({
      name,
      severity: 'error',
      comment,
      from: { path: pathOf(prefix, from) },
      to: { path: pathOf(prefix, to) },
    });
  for (const [i, rank] of layers.entries()) {
    for (const lower of rank) {
      for (const upper of layers.slice(0, i).flat()) {
        const comment = `${prefix}${lower} sits below ${upper} (.dependency-cruiser.cjs): move what both need down a layer.`;
        rule(`${tag}${nameOf(lower)}-below-${nameOf(upper)}`, comment, lower, upper);
      }
      for (const beside of rank.filter((m) => m !== lower)) {
        rule(
          `${tag}${nameOf(lower)}-beside-${nameOf(beside)}`,
          'Neighbours of one rank import neither way.',
          lower,
          beside,
        );
      }
    }
  }
  return rules;
}

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
    ...layerRules(LAYERS, API),
    ...layerRules(SERVICE_LAYERS, `${API}services/`),
    ...layerRules(WEB_LAYERS, WEB, 'web-'),
    {
      name: 'web-feature-beside-feature',
      severity: 'error',
      comment:
        "A feature imports no sibling feature's internals, only its index.ts (its public face): what two features share moves down to the surface's shared/ (or src/shared/), or up to the route that composes them.",
      from: { path: `${WEB}(site|portal|console)/([^/]+)/` },
      to: { path: `${WEB}$1/[^/]+/`, pathNot: `${WEB}$1/($2/|shared/|[^/]+/index\\.tsx?$)` },
    },
    {
      name: 'web-surface-shared-below-features',
      severity: 'error',
      comment: "A surface's shared/ serves its features and imports none of them.",
      from: { path: `${WEB}(site|portal|console)/shared/` },
      to: { path: `${WEB}$1/`, pathNot: `${WEB}$1/shared/` },
    },
    {
      name: 'web-no-file-outside-the-layers',
      severity: 'error',
      comment:
        'apps/web/src is entries, routes/, site/, portal/, console/ and shared/ (decision 1140): a file in features/, lib/ or components/ (the old layout, e.g. from a branch made before) moves to its surface or to shared/.',
      from: { path: `${WEB}(features|lib|components)/` },
      to: {},
    },
    {
      name: 'web-route-tree-only-in-app',
      severity: 'error',
      comment:
        "routeTree.gen.ts (generated by the router plugin) imports every route: only the router's own entry (app.tsx) imports it. A type of the routes comes from the registered router (LinkOptions, decision 1141).",
      from: { path: '^apps/', pathNot: `${WEB}app\\.tsx$` },
      to: { path: `${WEB}routeTree\\.gen\\.ts$` },
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
    exclude: { path: '(^|/)(dist|node_modules)/' },
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
