import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import type { LightPages } from '../src/light/prerender';
import { type Chunk, chunksOf, chunkTools, criticalCss, pageHtml, pageScripts, renderInNode } from './prerender-kit';

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
      chunks = chunksOf(bundle);
    },
    async writeBundle() {
      const outDir = config.build.outDir;
      const url = (file: string) => `${config.base}${file}`;
      const { chunkOf, closure, cssOf } = chunkTools(chunks, 'prerender-light');

      const appUrl = url(chunkOf(LIGHT_APP).fileName);
      const own = await buildScripts(config, appUrl);
      const ownScripts = chunkTools(own, 'prerender-light');
      const pages = await renderLightPages(config);
      const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
      for (const page of LIGHT_PAGES) {
        const markup = pages[page.markup];
        if (/<script|<template/i.test(markup)) throw new Error(`prerender-light: ${page.file} holds a script`);
        const script = ownScripts.chunkOf(page.script);
        const appChunks = [chunkOf(LIGHT_APP), chunkOf(APP), ...[...LAYOUT, ...page.app].map(chunkOf)];
        const appCss = cssOf(appChunks);
        const prefetch = [...new Set([...appCss, ...closure(appChunks).map((c) => c.fileName)])];
        const css = await criticalCss(markup, appCss.map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n'), {
          plugin: 'prerender-light',
          beside: pages.specimens,
        });
        const { scriptTag, preloads } = pageScripts(url, script, ownScripts.closure([script]), {
          css: appCss,
          prefetch,
        });
        // Without the shell's preload of /trpc/auth.me: a light page goes only to a browser with no
        // session cookie (apps/api/src/plugins/web.ts), whose answer is known, and on a slow line that
        // request shared the line with the status the page draws (issue 48).
        const html = pageHtml(shell, { css, scriptTag, preloads, markup }, 'prerender-light');
        const withoutMe = html.replace(/\s*<link rel="preload" href="\/trpc\/auth\.me"[^>]*>/, '');
        if (withoutMe === html) throw new Error('prerender-light: index.html no longer preloads /trpc/auth.me');
        writeFileSync(join(outDir, page.file), withoutMe);
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

/** src/light/prerender.tsx, built for Node and run: each page's markup and the specimens. */
function renderLightPages(config: ResolvedConfig): Promise<LightPages> {
  return renderInNode(config, 'prerender-light', 'src/light/prerender.tsx', (m) =>
    (m as typeof import('../src/light/prerender')).renderLightPages(),
  );
}
