import { type ColumnMetadata, type DatabaseMetadata, DiffChecker, type Overrides } from 'kysely-codegen';

/**
 * How the migrated schema becomes packages/db's table types (gen-types.ts runs it): kysely-codegen
 * introspects the tables, and this file adds what the introspection leaves out. Everything here is
 * pure, so the unit tests reach it without a database.
 */

/** The generated file, relative to packages/db. */
export const OUT_FILE = 'src/generated/tables.ts';

const COLUMN_TYPES = '../column-types';
/** The hand-written types the generated file may import (src/column-types.ts). */
export const CUSTOM_IMPORTS: Record<string, string> = Object.fromEntries(
  ['Address', 'Decimal', 'EmailAttachment', 'JsonColumn', 'ReadOnly'].map((name) => [name, COLUMN_TYPES]),
);

/** numeric is a string both ways: money is never a float. */
export const TYPE_MAPPING: Record<string, string> = { numeric: 'Decimal' };

/** What the schema cannot say about the tables; refine() applies it. */
export interface TableTypesConfig {
  /**
   * String unions with a name of their own (the name in snake_case, the type in PascalCase: Tier,
   * DealerStatus), each with its columns as `table.column`. The values are those of the columns'
   * `check (column in (...))` constraints: every listed column that has one must allow the same
   * values, and a listed column without one (a copy of another column's value) takes the union as it
   * is. A checked column listed nowhere gets its values inline.
   */
  namedUnions: Record<string, string[]>;
  /** What json and jsonb columns hold (names from column-types.ts); any other json column holds `unknown`. */
  jsonShapes: Record<string, string>;
  /** Columns only triggers write: read-only to the app, as generated columns are. */
  keptByTriggers: string[];
}

export const TABLE_TYPES: TableTypesConfig = {
  namedUnions: {
    tier: ['dealers.tier', 'first_order_forms.tier', 'commission_rules.tier', 'admin_action_items.before_tier'],
    dealer_status: ['dealers.status', 'admin_action_items.before_status'],
    admin_role: ['admins.role', 'admin_invitations.role'],
    admin_action_kind: ['admin_actions.kind'],
    commission_status: ['commissions.status'],
    order_source: ['orders.source'],
    order_status: ['orders.status'],
  },
  jsonShapes: {
    'dealers.address_json': 'Address',
    'sessions.sess': 'Record<string, unknown>',
    'email_outbox.attachments': 'EmailAttachment[]',
    'admin_actions.params': 'Record<string, unknown>',
    'admin_actions.skipped': 'Record<string, number>',
    'admin_preferences.export_columns': 'string[]',
    'system_samples.figures': 'Record<string, number>',
  },
  // The shard counters of migrations 0950 and 0960.
  keptByTriggers: ['referral_versions.n', 'admin_versions.n', 'dealers.mailbox'],
};

/** What the introspection leaves out, read from the catalog (gen-types.ts). */
export interface SchemaFacts {
  /** Every check constraint on a single column, as `pg_get_constraintdef` prints it. */
  checks: { table: string; column: string; definition: string }[];
  /** `table.column` of every generated (stored) column. */
  generated: string[];
}

const QUOTED = /'((?:[^']|'')*)'::[a-z ]+/g;

/**
 * The values a check constraint on `column` allows when it is `column in ('a', 'b')` or
 * `column = 'a'` (as PostgreSQL prints them); undefined for any other check.
 */
export function allowedValues(definition: string, column: string): string[] | undefined {
  const name = `"?${column}"?`;
  const list = new RegExp(`^CHECK \\(\\(${name} = ANY \\(ARRAY\\[(.+)\\]\\)\\)\\)$`).exec(definition)?.[1];
  const one = new RegExp(`^CHECK \\(\\(${name} = ('(?:[^']|'')*'::[a-z ]+)\\)\\)$`).exec(definition)?.[1];
  const values = list ?? one;
  if (values === undefined) return undefined;
  const found = [...values.matchAll(QUOTED)];
  // Every item must be a quoted literal: `a = any (array[b, 'c'])` is not a list of values.
  if (found.map((m) => m[0]).join(', ') !== values) return undefined;
  return found.map((m) => m[1]!.replaceAll("''", "'"));
}

/** The TypeScript a read-only column's value reads as, by PostgreSQL type. */
const READ_AS: Record<string, string> = {
  bool: 'boolean',
  // earthdistance's `earth` (a domain over cube): node-postgres reads it as its text, "(x, y, z)".
  cube: 'string',
  int2: 'number',
  int4: 'number',
  int8: 'string',
  numeric: 'string',
  text: 'string',
  timestamptz: 'Date',
  varchar: 'string',
};

/**
 * Applies the facts and the config to `metadata` (named and inline unions) and returns the
 * overrides kysely-codegen takes for the json and read-only columns. Throws on a contradiction.
 */
export function refine(
  metadata: DatabaseMetadata,
  facts: SchemaFacts,
  config: TableTypesConfig = TABLE_TYPES,
): Overrides {
  const columns = new Map<string, ColumnMetadata>();
  for (const table of metadata.tables) {
    for (const column of table.columns) columns.set(`${table.name}.${column.name}`, column);
  }
  const column = (path: string): ColumnMetadata => {
    const found = columns.get(path);
    if (!found) throw new Error(`scripts/table-types.ts names ${path}, a column the migrated schema does not have`);
    return found;
  };

  for (const path of Object.keys(config.jsonShapes)) {
    const type = column(path).dataType;
    if (type !== 'json' && type !== 'jsonb') {
      throw new Error(`scripts/table-types.ts gives ${path} a json shape, but it is ${type}`);
    }
  }

  const allowed = new Map<string, string[]>();
  for (const check of facts.checks) {
    const values = allowedValues(check.definition, check.column);
    if (!values) continue;
    const path = `${check.table}.${check.column}`;
    if (allowed.has(path)) throw new Error(`${path} has two checks listing its values; keep one`);
    allowed.set(path, values);
  }

  const named = new Set<string>();
  for (const [union, paths] of Object.entries(config.namedUnions)) {
    const checked = paths.filter((p) => allowed.has(p));
    if (checked.length === 0) throw new Error(`No column of the union ${union} (${paths.join(', ')}) has a check`);
    const values = allowed.get(checked[0]!)!;
    for (const path of checked) {
      if (allowed.get(path)!.join('\0') !== values.join('\0')) {
        throw new Error(
          `${checked[0]} and ${path} allow different values (${values.join(', ')} / ${allowed.get(path)!.join(', ')}), ` +
            `yet scripts/table-types.ts gives both the union ${union}`,
        );
      }
    }
    // A copy: kysely-codegen sorts the values in place.
    metadata.enums.set(`public.${union}`, [...values]);
    for (const path of paths) {
      Object.assign(column(path), { dataType: union, dataTypeSchema: 'public', enumValues: null });
      named.add(path);
    }
  }
  for (const [path, values] of allowed) {
    if (!named.has(path)) column(path).enumValues = values;
  }

  const overrides: Record<string, string> = {};
  for (const path of [...facts.generated, ...config.keptByTriggers]) {
    const c = column(path);
    const readAs = READ_AS[c.dataType];
    if (!readAs) throw new Error(`${path} is read-only, but scripts/table-types.ts has no type for ${c.dataType}`);
    overrides[path] = `ReadOnly<${c.isNullable ? `${readAs} | null` : readAs}>`;
  }
  for (const [path, c] of columns) {
    if (c.dataType !== 'json' && c.dataType !== 'jsonb') continue;
    let type = `JsonColumn<${config.jsonShapes[path] ?? 'unknown'}>`;
    if (c.isNullable) type = `${type} | null`;
    overrides[path] = c.hasDefaultValue ? `Generated<${type}>` : type;
  }
  return { columns: overrides };
}

/** The first lines of the generated file. */
export const HEADER = `/**
 * Generated by \`pnpm db:types\` (packages/db/scripts/gen-types.ts, kysely-codegen) from the migrated
 * schema: do not edit. \`pnpm db:types:check\` (part of \`pnpm lint\`) fails when it is stale.
 */
`;

/**
 * A generated file's declarations, by `interface Name` or `type Name`: an interface's members by
 * name (`column` to its type), a type alias's value as its one member ''.
 */
function declarations(text: string): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  let members: Map<string, string> | undefined; // of the declaration being read
  let member: string | undefined; // the member a line that goes on belongs to
  const set = (name: string, type: string) => members!.set(name, type.replace(/;$/, '').trim());
  for (const line of text.split('\n')) {
    const start = /^export (interface|type) (\w+)[^=]*(?:=(.*))?$/.exec(line);
    if (start) {
      members = new Map();
      found.set(`${start[1]} ${start[2]}`, members);
      member = start[1] === 'type' ? '' : undefined;
      if (member === '') set('', start[3] ?? '');
    } else if (line === '' || line === '}') {
      members = undefined;
    } else if (members) {
      const named = member === '' ? null : /^ {2}(\w+)\??:(.*)$/.exec(line);
      if (named) {
        member = named[1]!;
        set(member, named[2]!);
      } else if (member !== undefined) {
        set(member, `${members.get(member)} ${line.trim()}`);
      }
    }
  }
  return found;
}

/** One line per table, column or type that differs between two generated files. */
export function summarize(committed: string, fresh: string): string[] {
  const before = declarations(committed);
  const after = declarations(fresh);
  const lines: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name);
    const is = after.get(name);
    if (!was || !is) {
      lines.push(`${name}: ${was ? 'removed' : 'added'}`);
      continue;
    }
    for (const member of new Set([...was.keys(), ...is.keys()])) {
      const a = was.get(member);
      const b = is.get(member);
      const what = member === '' ? name : `${name}.${member}`;
      if (a === undefined) lines.push(`${what}: added (${b})`);
      else if (b === undefined) lines.push(`${what}: removed (was ${a})`);
      else if (a !== b) lines.push(`${what}: ${a} -> ${b}`);
    }
  }
  return lines;
}

/**
 * Undefined when the committed file is the fresh one; otherwise what differs (a line per column,
 * then a unified diff: \`-\` the committed file, \`+\` what the migrations make), and what to run.
 */
export function staleReport(committed: string | undefined, fresh: string): string | undefined {
  if (committed === fresh) return undefined;
  const what =
    committed === undefined
      ? `packages/db/${OUT_FILE} is missing.`
      : `packages/db/${OUT_FILE} is stale: the migrated schema's table types differ from the committed file.\n` +
        summarize(committed, fresh)
          .map((line) => `  ${line}\n`)
          .join('') +
        `\n(- committed, + from the migrations)\n${new DiffChecker().diff(committed, fresh)}`;
  return `${what}\nRun \`pnpm db:types\` and commit packages/db/${OUT_FILE}.`;
}
