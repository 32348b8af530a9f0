// Bundles the server and CLIs with the workspace packages inlined; npm dependencies stay external.
import { build } from 'esbuild';

await build({
  entryPoints: [
    'src/server.ts',
    'src/cli/migrate.ts',
    'src/cli/admin-create.ts',
    'src/cli/backup.ts',
    'src/cli/restore.ts',
    'src/cli/keys-rotate.ts',
  ],
  // OUT_DIR lets parallel work build side by side; it must stay inside apps/api so the
  // external npm packages resolve from the bundle's location.
  outdir: process.env.OUT_DIR ?? 'dist',
  outbase: 'src',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@dn/') ? undefined : { external: true }));
      },
    },
  ],
});
