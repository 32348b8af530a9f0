/** Types for clients: `import type { AppRouter } from '@dn/api'` with @trpc/client. */
export type { AppRouter } from './routers/index';
export type { PublicUser } from './services/accounts/users';
