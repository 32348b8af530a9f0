import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { type Chunk, chunksOf, chunkTools, criticalCss, pageHtml, pageScripts, renderInNode } from './prerender-kit';

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
      chunks = chunksOf(bundle);
    },
    async writeBundle() {
      const outDir = config.build.outDir;
      const base = config.base;
      const { chunkOf, closure, cssOf } = chunkTools(chunks, 'prerender-landing');
      const url = (file: string) => `${base}${file}`;

      const script = chunkOf(LANDING_SCRIPT);
      const appChunks = [chunkOf(APP), chunkOf(LANDING_ROUTE)];
      const appCss = cssOf(appChunks);
      const onDemand = ON_DEMAND.map(chunkOf);
      const loaded = new Set(closure([script]).map((c) => c.fileName));
      const prefetch = [
        ...new Set([...appCss, ...cssOf(onDemand), ...closure([...appChunks, ...onDemand]).map((c) => c.fileName)]),
      ].filter((f) => !loaded.has(f));

      const { markup, scriptOnlyClasses } = await renderLanding(config);
      if (/<script|<template/i.test(markup))
        throw new Error('prerender-landing: the render holds a script or template');
      const css = await criticalCss(markup, appCss.map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n'), {
        plugin: 'prerender-landing',
        allow: scriptOnlyClasses.map((c) => `.${c}`),
      });

      const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
      const { scriptTag, preloads } = pageScripts(url, script, closure([script]), { css: appCss, prefetch });
      writeFileSync(
        join(outDir, 'landing.html'),
        pageHtml(shell, { css, scriptTag, preloads, markup }, 'prerender-landing'),
      );
    },
  };
}

/** src/prerender.tsx, built for Node and run: the landing's markup and the classes only its script adds. */
function renderLanding(config: ResolvedConfig): Promise<{ markup: string; scriptOnlyClasses: string[] }> {
  return renderInNode(config, 'prerender-landing', 'src/prerender.tsx', async (m) => {
    const mod = m as typeof import('../src/prerender');
    if (mod.scriptOnlyClasses.some((c) => !c)) throw new Error('prerender-landing: a script-only class is missing');
    return { markup: await mod.renderLanding(), scriptOnlyClasses: mod.scriptOnlyClasses };
  });
}
