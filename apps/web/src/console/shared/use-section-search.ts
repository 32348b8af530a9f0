import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo } from 'react';
import type { z } from 'zod';

type Search = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: any section's object schema
type AnySearchSchema = z.ZodObject<any>;

/** Only the keys with a value: defaults stay out of the URL. */
const defined = (search: Search): Search =>
  Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/** Every key of the schema, valid or undefined (a refused value falls back to the default). */
export function parseSearch<S extends AnySearchSchema>(schema: S, raw: Search): z.output<S> {
  const out = schema.parse(raw) as Search;
  return Object.fromEntries(Object.keys(schema.shape).map((k) => [k, out[k]])) as z.output<S>;
}

/** The URL already says what the section shows (?page=2 and ?page="2" alike). */
function same(a: Search, b: Search): boolean {
  const x = defined(a);
  const y = defined(b);
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => String(x[k]) === String(y[k]));
}

/**
 * A section's search params, validated by its zod schema (docs/decisions/0875), and a setter that
 * applies a change as a navigation: each change is a history entry (Back returns to the previous
 * view) and the window stays put. A URL with refused values is replaced by the one the section
 * shows, so a bookmark or a reload always finds the same view.
 */
export function useSectionSearch<S extends AnySearchSchema>(schema: S) {
  const raw = useSearch({ strict: false }) as Search;
  const navigate = useNavigate();
  const key = JSON.stringify(raw);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the raw search's value, not its identity
  const search = useMemo(() => parseSearch(schema, raw), [schema, key]);
  useEffect(() => {
    if (!same(raw, search as Search)) {
      void navigate({ to: '.', search: defined(search as Search) as never, replace: true, resetScroll: false });
    }
  }, [raw, search, navigate]);
  const setSearch = useCallback(
    (patch: Partial<z.output<S>>) =>
      navigate({
        to: '.',
        search: ((prev: Search) => defined({ ...parseSearch(schema, prev), ...patch })) as never,
        resetScroll: false,
      }),
    [navigate, schema],
  );
  return [search, setSearch] as const;
}
