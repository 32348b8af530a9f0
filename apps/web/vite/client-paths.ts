// No imports: the api's test of the served pages reads the route tree with this same function.

/**
 * The client router's full paths, read from its generated route tree (`FileRoutesByFullPath`, in
 * TanStack's syntax: `$id`, `{-$token}`, `/admin/` for a layout's index). Throws when the tree
 * names none: a renamed interface must fail the build, not serve a site whose pages all answer 404.
 */
export function clientPaths(routeTree: string): string[] {
  const block = /export interface FileRoutesByFullPath \{\n([\s\S]*?)\n\}/.exec(routeTree)?.[1];
  const paths = [...(block ?? '').matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]!);
  if (paths.length === 0) throw new Error('route-manifest: no FileRoutesByFullPath in the route tree');
  return paths;
}
