import type { Migration } from 'kysely/migration';
import * as m0001 from './2026-11-21-0001-initial';
import * as m0300 from './2026-11-21-0300-admin-search';
import * as m0301 from './2026-11-21-0301-admin-export-and-counts';
import * as m0302 from './2026-11-21-0302-admin-tracking-index';
import * as m0303 from './2026-11-21-0303-dealer-counts';
import * as m0304 from './2026-11-21-0304-drop-csv-cell';

// A static list (not a folder scan) so the bundled server carries its migrations.
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-initial': m0001,
  '2026-11-21-0300-admin-search': m0300,
  '2026-11-21-0301-admin-export-and-counts': m0301,
  '2026-11-21-0302-admin-tracking-index': m0302,
  '2026-11-21-0303-dealer-counts': m0303,
  '2026-11-21-0304-drop-csv-cell': m0304,
};
