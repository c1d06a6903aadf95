/**
 * Discovers the resource declarations (every `*.resource.ts` of packages/shared) and binds each to its Drizzle
 * table or view by SQL name: no framework file is edited to add an entity.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ident, type Raw, raw, schema } from '@guildhall/db';
import { columnOf, isResource, RECORD_VERSION_FIELD, type ResourceDeclaration } from '@guildhall/shared';
import { getTableColumns, getTableName, getViewName, getViewSelectedFields, is } from 'drizzle-orm';
import { type PgColumn, PgTable, PgView } from 'drizzle-orm/pg-core';
import { MODULE_EXTENSION } from '../module-files.ts';
import type { ExtraFieldsSource } from './extra-fields.ts';
import type { ResourceHooks } from './hooks.ts';

export interface BoundResource {
  resource: ResourceDeclaration;
  source: PgTable | PgView;
  /** Table (writable) or view (read-only). */
  isTable: boolean;
  /** Every Drizzle property of the source. */
  properties: Record<string, PgColumn>;
  /** Field name to column, for fields stored in a column of their own (not in a JSON document). */
  columns: Record<string, PgColumn>;
  tenantColumn: PgColumn;
  keyColumn: PgColumn;
  /** The source, quoted, for the engine's own statements (statement.ts). */
  sqlSource: Raw;
  /** Field to its column as qualified, quoted SQL text. */
  sqlColumns: Record<string, Raw>;
  sqlTenant: Raw;
  sqlKey: Raw;
  /** Field to its column's reader of a stored value (Drizzle's own), for rows those statements read. */
  decoders: Record<string, (value: unknown) => unknown>;
  /** The server hooks its feature module declares (none by default); set once when the app assembles. */
  hooks: ResourceHooks;
  /** The record version column of a versioned table (optimistic concurrency, decision 0095); a list reads it as `Version`. */
  versionColumn: PgColumn | undefined;
  /**
   * Each lookup field's target resource (`lookup.source`), set once every resource is bound: a save names only
   * records of the target that the tenant has (decision 0082).
   */
  references: Record<string, Pick<BoundResource, 'resource' | 'sqlSource' | 'sqlTenant' | 'sqlKey'>>;
  /** Fields a tenant adds at run time (custom fields), set when the app assembles for a resource that opts in. */
  extraFields?: ExtraFieldsSource;
}

/** A column of the source as qualified, quoted SQL text. */
export function columnSql(bound: Pick<BoundResource, 'sqlSource'>, column: PgColumn): Raw {
  return raw(`${bound.sqlSource.text}.${ident(column.name).text}`);
}

const sharedRoot = dirname(fileURLToPath(import.meta.resolve('@guildhall/shared')));

function filesEndingWith(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesEndingWith(path, suffix));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

/**
 * Every export of the shared package's modules named `*<kind>` (`.resource`: `contacts.resource.ts`, or `.js` where
 * the server runs compiled) that passes `accept`.
 */
export async function discover<T>(kind: string, accept: (value: unknown) => value is T): Promise<T[]> {
  const found: T[] = [];
  for (const file of filesEndingWith(sharedRoot, `${kind}${MODULE_EXTENSION}`)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (accept(value)) found.push(value);
  }
  return found;
}

function sources(): Map<string, PgTable | PgView> {
  const map = new Map<string, PgTable | PgView>();
  for (const value of Object.values(schema as Record<string, unknown>)) {
    if (is(value, PgTable)) map.set(getTableName(value), value);
    else if (is(value, PgView)) map.set(getViewName(value), value);
  }
  return map;
}

export function bind(resource: ResourceDeclaration, known = sources()): BoundResource {
  const source = known.get(resource.table);
  if (!source)
    throw new Error(`Resource ${resource.name}: no table or view named ${resource.table} in @guildhall/db`);
  const isTable = is(source, PgTable);
  const properties = (
    isTable ? getTableColumns(source as PgTable) : getViewSelectedFields(source as PgView)
  ) as Record<string, PgColumn>;
  const columns: Record<string, PgColumn> = {};
  for (const field of Object.keys(resource.fields)) {
    const prop = columnOf(resource, field);
    if (prop.includes('.')) continue;
    const column = properties[prop];
    if (!column)
      throw new Error(`Resource ${resource.name}: field ${field} has no column ${prop} in ${resource.table}`);
    columns[field] = column;
  }
  const tenantColumn = properties.tenantId ?? (resource.table === 'tenants' ? properties.id : undefined);
  if (!tenantColumn) throw new Error(`Resource ${resource.name}: ${resource.table} has no tenant_id`);
  const keyColumn = columns[resource.key];
  if (!keyColumn) throw new Error(`Resource ${resource.name}: key ${resource.key} has no column`);
  for (const f of [...resource.sortable, ...resource.filterable, ...resource.search]) {
    if (!columns[f])
      throw new Error(
        `Resource ${resource.name}: ${f} is sortable, filterable or searchable but has no column`,
      );
  }
  const sqlSource = ident(isTable ? getTableName(source as PgTable) : getViewName(source as PgView));
  const sqlColumns: Record<string, Raw> = {};
  const decoders: Record<string, (value: unknown) => unknown> = {};
  for (const [field, column] of Object.entries(columns)) {
    sqlColumns[field] = columnSql({ sqlSource }, column);
    decoders[field] = (value) => column.mapFromDriverValue(value);
  }
  const versionColumn = isTable ? properties.version : undefined;
  if (versionColumn) {
    sqlColumns[RECORD_VERSION_FIELD] = columnSql({ sqlSource }, versionColumn);
    decoders[RECORD_VERSION_FIELD] = (value) => versionColumn.mapFromDriverValue(value);
  }
  return {
    resource,
    source,
    isTable,
    properties,
    columns,
    tenantColumn,
    keyColumn,
    sqlSource,
    sqlColumns,
    sqlTenant: columnSql({ sqlSource }, tenantColumn),
    sqlKey: columnSql({ sqlSource }, keyColumn),
    decoders,
    hooks: {},
    versionColumn,
    references: {},
  };
}

export async function discoverResources(): Promise<BoundResource[]> {
  const resources = await discover('.resource', isResource);
  const known = sources();
  const names = new Set<string>();
  const bound = resources.map((r) => {
    if (names.has(r.name)) throw new Error(`Two resources are named ${r.name}`);
    names.add(r.name);
    return bind(r, known);
  });
  for (const b of bound) {
    for (const [field, declaration] of Object.entries(b.resource.fields)) {
      const sourceName = declaration.type === 'lookup' ? declaration.lookup?.source : undefined;
      if (!sourceName) continue;
      const target = bound.find((t) => t.resource.name === sourceName);
      if (!target)
        throw new Error(`Resource ${b.resource.name}: ${field} looks up ${sourceName}, which is no resource`);
      b.references[field] = target;
    }
  }
  return bound;
}

/** The app's binding of a resource by name (with its hooks): what a feature uses to call the generic service. */
export function boundResource(resources: readonly BoundResource[], name: string): BoundResource {
  const bound = resources.find((r) => r.resource.name === name);
  if (!bound) throw new Error(`No resource is named ${name}.`);
  return bound;
}
