import { readSystemFigures, type SystemFigures } from '@dn/db/queries/system';
import type { Deps } from '../../context';

export type { SystemFigures } from '@dn/db/queries/system';

/** The queue figures at this moment, by the services' clock: one statement (queries/system.ts). */
export function systemFigures(deps: Pick<Deps, 'db' | 'clock'>): Promise<SystemFigures> {
  return readSystemFigures(deps.db, deps.clock.now());
}
