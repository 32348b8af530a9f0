import { ADMIN_MESSAGES } from '@dn/schema';
import { notifications } from '@mantine/notifications';
import type { QueryKey, UseMutationOptions } from '@tanstack/react-query';
import type { DecorateMutationProcedure, inferInput, inferOutput } from '@trpc/tanstack-react-query';
import type { Trpc } from '../../shared/lib/trpc';

// biome-ignore lint/suspicious/noExplicitAny: any procedure of the router
export type AnyMutation = DecorateMutationProcedure<any>;

/** A toast: its title, and a line under it; `warning` when the change was partly or not done (yellow, not green). */
export type Notice = string | { title: string; message?: string; warning?: boolean };

/**
 * One admin mutation, declared once (issue 34): the procedure, what it says on success and on
 * failure (words from `@dn/schema`'s ADMIN_MESSAGES), and every query it makes stale.
 */
export interface AdminMutationSpec<P extends AnyMutation> {
  procedure: (trpc: Trpc) => P;
  /**
   * The success toast; `{ decision }`: a review decision's notice with its Undo button (nothing is
   * emailed before the window ends); absent: the caller reports (a chunked import, a bulk run).
   */
  success?: Notice | ((data: inferOutput<P>, input: inferInput<P>) => Notice) | { decision: string };
  /** The failure toast's title; its line is the server's message. */
  failure: string;
  /** The queries this mutation changes (path keys: `trpc.admin.pathKey()`), refreshed after it succeeds. */
  invalidates: (trpc: Trpc) => readonly QueryKey[];
}

/** Declares a spec with its procedure's types (the declarations live in ./mutations.ts). */
export const adminMutation = <P extends AnyMutation>(spec: AdminMutationSpec<P>) => spec;

/** What a screen adds: its own step after success (close a dialog, clear a form), other options (scope). */
export interface AdminMutationExtra<P extends AnyMutation>
  extends Omit<UseMutationOptions<inferOutput<P>, Error, inferInput<P>>, 'mutationFn' | 'mutationKey' | 'onSuccess'> {
  onSuccess?: (data: inferOutput<P>, input: inferInput<P>) => unknown;
}

export const showNotice = (notice: Notice, color: 'green' | 'red') =>
  notifications.show(
    typeof notice === 'string'
      ? { title: notice, message: '', color }
      : { title: notice.title, message: notice.message ?? '', color: notice.warning ? 'yellow' : color },
  );

/** The failure toast every admin mutation shows: the spec's title, the server's words (or "Please try again."). */
export const showAdminFailure = (title: string, error: unknown) =>
  showNotice({ title, message: (error as Error | null)?.message || ADMIN_MESSAGES.tryAgain }, 'red');
