import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import type { LightPages } from '../src/light/prerender';

/**
 * The light pages (decision 1160): the homeowner's quote form and the two private status pages,
 * prerendered like the landing (decision 0503), each with its own small script. Per page: the file
 * written, its script, the markup (src/light/prerender.tsx) and the modules the app needs to draw the
 * same page when it takes over (matched on the chunks' module ids, by file name, so a move of a
 * feature folder does not break the build; a name that matches nothing does).
 */
export const LIGHT_PAGES = [
  {
    file: 'quote.html',
    path: '/quote',
    script: '/src/light/quote.ts',
    markup: 'quote',
    app: [/[\\/]QuotePage\.tsx$/],
  },
  {
    file: 'installation-status.html',
    path: '/quote/:token',
    script: '/src/light/installation.ts',
    markup: 'installation',
    app: [/[\\/]QuotePage\.tsx$/],
  },
  {
    file: 'application-status.html',
    path: '/application/:token',
    script: '/src/light/application.ts',
    markup: 'application',
    app: [/[\\/]application\.\$token\.tsx/, /[\\/]ScheduleCallDialog\.tsx$/],
  },
] as const satisfies readonly {
  file: string;
  path: string;
  script: string;
  markup: keyof Omit<LightPages, 'specimens'>;
  app: readonly RegExp[];
}[];

const APP = /[\\/]src[\\/]boot\.tsx$/;
/** The app's entry for the light scripts (its export keeps its name). */
const LIGHT_APP = '/src/light/app.ts';
/** The root layout's lazy parts: on every one of these pages. */
const LAYOUT = [/[\\/]TopNav\.tsx$/, /[\\/]layout[\\/]Footer\.tsx$/];

type Chunk = Pick<Rolldown.OutputChunk, 'fileName' | 'imports' | 'facadeModuleId' | 'moduleIds'> & { css: string[] };

export function prerenderLight(): Plugin {
  let config: ResolvedConfig;
  let chunks: Chunk[] = [];
  return {
    name: 'prerender-light',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    generateBundle(_options, bundle) {
      chunks = Object.values(bundle).flatMap((o) =>
        o.type === 'chunk'
          ? [
              {
                fileName: o.fileName,
                imports: o.imports,
                facadeModuleId: o.facadeModuleId,
                moduleIds: o.moduleIds,
                css: [...(o.viteMetadata?.importedCss ?? [])],
              },
            ]
          : [],
      );
    },
    async writeBundle() {
      const outDir = config.build.outDir;
      const url = (file: string) => `${config.base}${file}`;
      const chunkOf = (id: string | RegExp) => {
        const test = (m: string) => (typeof id === 'string' ? m.endsWith(id) : id.test(m));
        const found = chunks.find((c) => (c.facadeModuleId && test(c.facadeModuleId)) || c.moduleIds.some(test));
        if (!found) throw new Error(`prerender-light: no chunk holds ${id}`);
        return found;
      };
      const closure = (roots: Chunk[]) => {
        const seen = new Set<Chunk>();
        const order: Chunk[] = [];
        const visit = (c: Chunk) => {
          if (seen.has(c)) return;
          seen.add(c);
          for (const f of c.imports) {
            const dep = chunks.find((d) => d.fileName === f);
            if (dep) visit(dep);
          }
          order.push(c);
        };
        for (const r of roots) visit(r);
        return order;
      };
      const cssOf = (cs: Chunk[]) => [...new Set(closure(cs).flatMap((c) => c.css))];

      const appUrl = url(chunkOf(LIGHT_APP).fileName);
      const own = await buildScripts(config, appUrl);
      const ownChunkOf = (id: string) => {
        const found = own.find((c) => c.facadeModuleId?.endsWith(id));
        if (!found) throw new Error(`prerender-light: no script built for ${id}`);
        return found;
      };
      const ownClosure = (root: Chunk) => {
        const order: Chunk[] = [];
        const visit = (c: Chunk) => {
          if (order.includes(c)) return;
          for (const f of c.imports) {
            const dep = own.find((d) => d.fileName === f);
            if (dep) visit(dep);
          }
          order.push(c);
        };
        visit(root);
        return order;
      };
      const pages = await renderInNode(config);
      const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
      for (const page of LIGHT_PAGES) {
        const markup = pages[page.markup];
        if (/<script|<template/i.test(markup)) throw new Error(`prerender-light: ${page.file} holds a script`);
        const script = ownChunkOf(page.script);
        const appChunks = [chunkOf(LIGHT_APP), chunkOf(APP), ...[...LAYOUT, ...page.app].map(chunkOf)];
        const appCss = cssOf(appChunks);
        const prefetch = [...new Set([...appCss, ...closure(appChunks).map((c) => c.fileName)])];
        const css = await criticalCss(
          markup,
          pages.specimens,
          appCss.map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n'),
        );
        const scriptTag =
          `<script type="module" crossorigin src="${url(script.fileName)}"` +
          ` data-app-css="${appCss.map(url).join(' ')}" data-app-prefetch="${prefetch.map(url).join(' ')}"></script>`;
        const preloads = ownClosure(script)
          .filter((c) => c !== script)
          .map((c) => `<link rel="modulepreload" crossorigin href="${url(c.fileName)}">`);
        const html = shell
          .replace(/\s*<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>/g, '')
          .replace(/\s*<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g, '')
          .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
          .replace(
            '</head>',
            `  <style data-critical>${css}</style>\n    ${[scriptTag, ...preloads].join('\n    ')}\n  </head>`,
          )
          .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
        if (!html.includes(markup) || !html.includes('data-mantine-color-scheme'))
          throw new Error('prerender-light: index.html no longer has the expected <html lang="en"> and empty #root');
        writeFileSync(join(outDir, page.file), html);
      }
    },
  };
}

/**
 * Builds the pages' scripts apart from the app: sharing chunks with it, the schema modules they import
 * brought zod (25 KB gzip) into their first download and split the app shell's chunks anew. Their one
 * link to the app, `import('../boot')` (landing/take-over.ts), goes to the app build's light-app entry.
 */
async function buildScripts(config: ResolvedConfig, appUrl: string): Promise<Chunk[]> {
  const input = Object.fromEntries(LIGHT_PAGES.map((p) => [`light-${p.markup}`, p.script.slice(1)]));
  const out = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    base: config.base,
    logLevel: 'warn',
    plugins: [
      {
        name: 'light-app-link',
        enforce: 'pre',
        resolveId(id, importer) {
          if (
            /^\.\.?\/(?:\.\.\/)*boot(?:\.tsx)?$/.test(id) &&
            importer &&
            /[\\/]src[\\/](landing|light)[\\/]/.test(importer)
          )
            return { id: appUrl, external: 'absolute' };
          return null;
        },
      },
    ],
    build: {
      outDir: config.build.outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      target: config.build.target,
      modulePreload: { polyfill: false },
      rollupOptions: {
        input,
        output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/light-[name]-[hash].js' },
        // As the app's build (vite.config.ts): an unused schema or zod module is dropped.
        treeshake: {
          moduleSideEffects: (id: string) => !/[\\/](packages[\\/]schema|node_modules[\\/]zod)[\\/]/.test(id),
        },
      },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[];
  const chunks = outputs
    .flatMap((o) => o.output)
    .flatMap((o) =>
      o.type === 'chunk'
        ? [
            {
              fileName: o.fileName,
              imports: o.imports,
              facadeModuleId: o.facadeModuleId,
              moduleIds: o.moduleIds,
              css: [],
            },
          ]
        : [],
    );
  if (outputs.some((o) => o.output.some((a) => a.type === 'asset' && a.fileName.endsWith('.css'))))
    throw new Error('prerender-light: a light script imports CSS (the page has its critical CSS only)');
  return chunks;
}

/** Builds src/light/prerender.tsx for Node (beside node_modules, so its imports resolve) and runs it. */
async function renderInNode(config: ResolvedConfig): Promise<LightPages> {
  const outDir = join(config.root, 'node_modules', '.prerender-light');
  try {
    await build({
      configFile: false,
      root: config.root,
      mode: config.mode,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        ssr: 'src/light/prerender.tsx',
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    const mod = (await import(
      pathToFileURL(join(outDir, 'prerender.mjs')).href
    )) as typeof import('../src/light/prerender');
    return await mod.renderLightPages();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The rules of the app's stylesheets that the page uses, or that its script will use when it fills
 * a status in or shows an error: the specimens stand beside the page while pruning, not in the page.
 */
async function criticalCss(markup: string, specimens: string[], css: string): Promise<string> {
  const beasties = new Beasties({
    logLevel: 'warn',
    mergeStylesheets: false,
    allowRules: [/^:root\[data-mantine-color-scheme="?light/],
  });
  const doc =
    '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head>' +
    `<style data-critical>${css}</style></head><body><div id="root">${markup}</div>` +
    specimens.map((s) => `<div>${s}</div>`).join('') +
    '</body></html>';
  const out = await beasties.process(doc);
  const pruned = out.match(/<style data-critical[^>]*>([\s\S]*?)<\/style>/)?.[1];
  if (pruned === undefined) throw new Error('prerender-light: beasties dropped the critical stylesheet');
  return pruned;
}
