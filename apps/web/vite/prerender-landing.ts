import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';

/** Source modules whose chunks the landing page needs (docs/decisions/0503-prerendered-landing.md). */
const LANDING_SCRIPT = '/src/landing/main.ts';
const APP = '/src/boot.tsx';
const LANDING_ROUTE = '/src/routes/index.tsx?tsr-split=component';
/** Loaded as the app takes over (the footer) or by the landing's buttons: prefetched with the app. */
const ON_DEMAND = [
  '/src/shared/components/layout/Footer.tsx',
  '/src/site/marketing/WizardModal.tsx',
  '/src/site/schedule-call/ScheduleCallDialog.tsx',
];

type Chunk = Pick<Rolldown.OutputChunk, 'fileName' | 'imports' | 'facadeModuleId' | 'moduleIds'> & { css: string[] };

/**
 * Writes dist/landing.html, served for `/`: the landing route rendered at build time by the app
 * itself (src/prerender.tsx, built for Node and run here), the CSS it uses inlined (pruned from
 * the app's own stylesheets), and one small module script (src/landing/main.ts) that boots the
 * app when a visitor needs it. index.html stays the app's shell for every other page.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  let chunks: Chunk[] = [];
  return {
    name: 'prerender-landing',
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
      const base = config.base;
      const chunkOf = (id: string) => {
        const found = chunks.find((c) => c.facadeModuleId?.endsWith(id) || c.moduleIds.some((m) => m.endsWith(id)));
        if (!found) throw new Error(`prerender-landing: no chunk holds ${id}`);
        return found;
      };
      // A chunk and its static imports, imports first: the order Vite links their CSS in.
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
      const url = (file: string) => `${base}${file}`;

      const script = chunkOf(LANDING_SCRIPT);
      const appChunks = [chunkOf(APP), chunkOf(LANDING_ROUTE)];
      const appCss = cssOf(appChunks);
      const onDemand = ON_DEMAND.map(chunkOf);
      const loaded = new Set(closure([script]).map((c) => c.fileName));
      const prefetch = [
        ...new Set([...appCss, ...cssOf(onDemand), ...closure([...appChunks, ...onDemand]).map((c) => c.fileName)]),
      ].filter((f) => !loaded.has(f));

      const { markup, scriptOnlyClasses } = await renderInNode(config);
      if (/<script|<template/i.test(markup))
        throw new Error('prerender-landing: the render holds a script or template');
      const css = await criticalCss(
        markup,
        appCss.map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n'),
        scriptOnlyClasses,
      );

      const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
      const scriptTag =
        `<script type="module" crossorigin src="${url(script.fileName)}"` +
        ` data-app-css="${appCss.map(url).join(' ')}" data-app-prefetch="${prefetch.map(url).join(' ')}"></script>`;
      const preloads = closure([script])
        .filter((c) => c !== script)
        .map((c) => `<link rel="modulepreload" crossorigin href="${url(c.fileName)}">`);
      const html = shell
        // The app's entry, its preloads and stylesheets: this page loads none of them up front.
        .replace(/\s*<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>/g, '')
        .replace(/\s*<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g, '')
        // Mantine's colour-scheme attribute, which the app sets when it starts (styles depend on it).
        .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
        .replace(
          '</head>',
          `  <style data-critical>${css}</style>\n    ${[scriptTag, ...preloads].join('\n    ')}\n  </head>`,
        )
        .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
      if (!html.includes(markup) || !html.includes('data-mantine-color-scheme')) {
        throw new Error('prerender-landing: index.html no longer has the expected <html lang="en"> and empty #root');
      }
      writeFileSync(join(outDir, 'landing.html'), html);
    },
  };
}

/** Builds src/prerender.tsx for Node (beside node_modules, so its imports resolve) and runs it. */
async function renderInNode(config: ResolvedConfig): Promise<{ markup: string; scriptOnlyClasses: string[] }> {
  const outDir = join(config.root, 'node_modules', '.prerender-landing');
  try {
    await build({
      configFile: false,
      root: config.root,
      mode: config.mode,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        ssr: 'src/prerender.tsx',
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    const mod = (await import(pathToFileURL(join(outDir, 'prerender.mjs')).href)) as typeof import('../src/prerender');
    if (mod.scriptOnlyClasses.some((c) => !c)) throw new Error('prerender-landing: a script-only class is missing');
    return { markup: await mod.renderLanding(), scriptOnlyClasses: mod.scriptOnlyClasses };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The rules of the app's stylesheets that the rendered page uses, plus those of elements its script adds. */
async function criticalCss(markup: string, css: string, scriptOnlyClasses: string[]): Promise<string> {
  const beasties = new Beasties({
    logLevel: 'warn',
    mergeStylesheets: false,
    // Mantine's light-scheme variables hang off <html data-mantine-color-scheme>, which the
    // matcher does not see on :root.
    allowRules: [...scriptOnlyClasses.map((c) => `.${c}`), /^:root\[data-mantine-color-scheme="?light/],
  });
  const doc =
    '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head>' +
    `<style data-critical>${css}</style></head><body><div id="root">${markup}</div></body></html>`;
  const out = await beasties.process(doc);
  const pruned = out.match(/<style data-critical[^>]*>([\s\S]*?)<\/style>/)?.[1];
  if (pruned === undefined) throw new Error('prerender-landing: beasties dropped the critical stylesheet');
  return pruned;
}
