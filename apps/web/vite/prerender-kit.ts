import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import { build, type ResolvedConfig, type Rolldown } from 'vite';

// What the two prerendering plugins share (the landing, decision 0503; the homeowner's light pages,
// decision 1160): the app build's chunks, a page's HTML from index.html, the render in Node and the
// critical CSS. Each plugin names itself in its errors.

export type Chunk = Pick<Rolldown.OutputChunk, 'fileName' | 'imports' | 'facadeModuleId' | 'moduleIds'> & {
  css: string[];
};

/** The chunks of a bundle (generateBundle), with the CSS each imports. */
export function chunksOf(bundle: Rolldown.OutputBundle): Chunk[] {
  return Object.values(bundle).flatMap((o) =>
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
}

/** Lookups in a list of chunks: the one holding a module, a chunk's static imports, their CSS. */
export function chunkTools(chunks: Chunk[], plugin: string) {
  const chunkOf = (id: string | RegExp) => {
    const test = (m: string) => (typeof id === 'string' ? m.endsWith(id) : id.test(m));
    const found = chunks.find((c) => (c.facadeModuleId && test(c.facadeModuleId)) || c.moduleIds.some(test));
    if (!found) throw new Error(`${plugin}: no chunk holds ${id}`);
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
  return { chunkOf, closure, cssOf };
}

/**
 * A prerendered page from the app's index.html: none of the app's scripts, preloads or stylesheets
 * up front, the critical CSS inlined, the page's own script and preloads, and the markup in #root.
 */
export function pageHtml(
  shell: string,
  page: { css: string; scriptTag: string; preloads: string[]; markup: string },
  plugin: string,
): string {
  const html = shell
    .replace(/\s*<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>/g, '')
    .replace(/\s*<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g, '')
    // Mantine's colour-scheme attribute, which the app sets when it starts (styles depend on it).
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace(
      '</head>',
      `  <style data-critical>${page.css}</style>\n    ${[page.scriptTag, ...page.preloads].join('\n    ')}\n  </head>`,
    )
    .replace('<div id="root"></div>', `<div id="root">${page.markup}</div>`);
  if (!html.includes(page.markup) || !html.includes('data-mantine-color-scheme')) {
    throw new Error(`${plugin}: index.html no longer has the expected <html lang="en"> and empty #root`);
  }
  return html;
}

/** Builds a render module for Node (beside node_modules, so its imports resolve), runs it, removes it. */
export async function renderInNode<T>(
  config: ResolvedConfig,
  plugin: string,
  entry: string,
  run: (mod: unknown) => Promise<T>,
): Promise<T> {
  const outDir = join(config.root, 'node_modules', `.${plugin}`);
  try {
    await build({
      configFile: false,
      root: config.root,
      mode: config.mode,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        ssr: entry,
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
      },
    });
    return await run(await import(pathToFileURL(join(outDir, 'prerender.mjs')).href));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The rules of the app's stylesheets that the page uses. `beside`: markup that stands beside the page
 * while pruning (what its script will draw), not in it; `allow`: selectors kept whatever the page holds.
 */
export async function criticalCss(
  markup: string,
  css: string,
  { plugin, beside = [], allow = [] }: { plugin: string; beside?: string[]; allow?: string[] },
): Promise<string> {
  const beasties = new Beasties({
    logLevel: 'warn',
    mergeStylesheets: false,
    // Mantine's light-scheme variables hang off <html data-mantine-color-scheme>, which the
    // matcher does not see on :root.
    allowRules: [...allow, /^:root\[data-mantine-color-scheme="?light/],
  });
  const doc =
    '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head>' +
    `<style data-critical>${css}</style></head><body><div id="root">${markup}</div>` +
    beside.map((s) => `<div>${s}</div>`).join('') +
    '</body></html>';
  const out = await beasties.process(doc);
  const pruned = out.match(/<style data-critical[^>]*>([\s\S]*?)<\/style>/)?.[1];
  if (pruned === undefined) throw new Error(`${plugin}: beasties dropped the critical stylesheet`);
  return pruned;
}

/**
 * A prerendered page's script tag (the app's stylesheets and the files to fetch at idle in its data
 * attributes, for when the app takes over) and the modulepreloads of the script's own imports.
 */
export function pageScripts(
  url: (file: string) => string,
  script: Chunk,
  scriptClosure: Chunk[],
  app: { css: string[]; prefetch: string[] },
): { scriptTag: string; preloads: string[] } {
  return {
    scriptTag:
      `<script type="module" crossorigin src="${url(script.fileName)}"` +
      ` data-app-css="${app.css.map(url).join(' ')}" data-app-prefetch="${app.prefetch.map(url).join(' ')}"></script>`,
    preloads: scriptClosure
      .filter((c) => c !== script)
      .map((c) => `<link rel="modulepreload" crossorigin href="${url(c.fileName)}">`),
  };
}
