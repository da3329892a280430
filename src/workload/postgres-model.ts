// A workload's access shapes on PostgreSQL: each statement EXPLAINed (not run) with one draw of its
// parameters, its plan reduced to shapes, and the relations' geometry from the catalogs: heap blocks,
// B-tree leaves and levels, each index's first column's range and its correlation with the heap order.
import type { Client } from 'pg';
import { PostgresPool } from '../sim/policies/postgres-clock-sweep';
import { SeededRandom } from '../sim/random';
import { pageId } from '../predict/postgres/geometry';
import { HEAP_BLOCKS_PER_VM_PAGE } from '../predict/postgres/plan-simulator';
import type { CompiledScript, CompiledStatement, CompiledWorkload } from './compiled';
import { insertedKey, statementRole } from './statement-text';
import { btreePath, type IndexPath, type TableLayout } from './layout';
import { keyCondition } from './key-binding';
import { executeScript, type WorkloadScript } from './script';
import type { RowMoves, RowTarget } from './shapes';
import type { Value } from './expression';

type Json = Record<string, unknown>;

class NotModelled extends Error {}

interface PgIndex {
  name: string;
  unique: boolean;
  firstColumn: string;
  numeric: boolean;
  ascending: boolean;
  correlation: number | null;
  keyMin: number;
  keyMax: number;
  path: IndexPath;
  tuples: number;
}

interface PgTable {
  name: string;
  /** The visibility-map page of heap block k: an UPDATE or DELETE pins it. */
  vmPage: (block: number) => number;
  layout: TableLayout;
  allVisible: number;
  rowsPerPage: number;
  indexes: PgIndex[];
  /** Whether a page as loaded has room for one more row version (from the rows per page and their width). */
  roomOnPage: boolean | undefined;
  /** Where versions that do not fit their page go (RowMoves), once the indexes are known. */
  moves?: RowMoves;
}

export class PostgresWorkloadModel {
  private readonly tables = new Map<string, PgTable>();
  private readonly relationNames: string[] = [];
  private blockSize = 8192;

  /** While an UPDATE's plan is walked: where its row versions move. */
  private moving: RowMoves | undefined;

  constructor(private readonly client: Client) {}

  /** The moves with the index the statement searched first (its new entry is at the row's own key). */
  private searchedFirst(moves: RowMoves, searched: IndexPath): RowMoves {
    return { ...moves, indexes: [...moves.indexes.filter((i) => i.path === searched), ...moves.indexes.filter((i) => i.path !== searched)] };
  }

  private relationId(name: string): number {
    let i = this.relationNames.indexOf(name);
    if (i < 0) {
      i = this.relationNames.length;
      if (i >= 127) throw new NotModelled('more than 127 relations in one workload');
      this.relationNames.push(name);
    }
    return i;
  }

  async compile(scripts: WorkloadScript[], fixed: Map<string, Value>): Promise<CompiledWorkload> {
    const settings = await this.client.query(`SELECT current_setting('block_size')::int AS bs,
        (SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers') AS nbuffers, version() AS version`);
    this.blockSize = settings.rows[0].bs;
    const rnd = new SeededRandom(0x5eed);
    const compiled: CompiledScript[] = [];
    for (const script of scripts) {
      const ctx = { variables: new Map(fixed), random: rnd };
      const { sql } = executeScript(script, ctx);
      const templates = script.commands.filter((c) => c.kind === 'sql');
      const statements: CompiledStatement[] = [];
      for (let i = 0; i < templates.length; i++) {
        const t = templates[i] as { text: string; line: number };
        statements.push(await this.compileStatement(t.text, t.line, sql[i]));
      }
      compiled.push({ script, statements });
    }
    const relations = [...this.tables.values()].flatMap((t) => [
      { name: t.name, pages: t.layout.pages },
      ...t.indexes.map((i) => ({ name: i.name, pages: i.path.leafPages })),
    ]);
    return {
      engine: 'postgresql',
      server: String(settings.rows[0].version).split(' on ')[0],
      scripts: compiled,
      fixed,
      poolPages: Number(settings.rows[0].nbuffers),
      pageBytes: this.blockSize,
      relations,
      makePool: (pages) => new PostgresPool(pages),
      notes: [
        'Each statement was EXPLAINed (not run) with one draw of its parameters; every execution is taken to use that plan.',
        'Keys are placed on the index by their share of the first column\u2019s range (dense numeric keys lay out that way); rows of a correlated index ' +
        'lie in key order on the heap, others at a stable pseudo-random block per key.',
        'Pages of the system catalogs, the visibility and free-space maps, and other sessions are not in the trace.',
      ],
    };
  }

  private async compileStatement(text: string, line: number, sample: string): Promise<CompiledStatement> {
    const classified = statementRole(text, 'postgresql');
    const role = classified === 'other' ? 'read' : classified;
    const stmt: CompiledStatement = { text, line, role, shapes: [], notes: [] };
    if (role === 'control') return stmt;
    let plan: Json;
    try {
      const r = await this.client.query(`EXPLAIN (FORMAT JSON) ${sample}`);
      plan = (r.rows[0]['QUERY PLAN'] as Json[])[0].Plan as Json;
    } catch (err) {
      stmt.notModelled = `EXPLAIN failed: ${(err as Error).message}`;
      return stmt;
    }
    try {
      await this.shapesOf(plan, text, stmt, undefined, 0);
    } catch (err) {
      if (!(err instanceof NotModelled)) throw err;
      stmt.shapes = [];
      stmt.notModelled = err.message;
    }
    return stmt;
  }

  private async shapesOf(node: Json, text: string, stmt: CompiledStatement, limit: number | undefined, rewrites: number): Promise<void> {
    const type = String(node['Node Type']);
    const children = (node.Plans as Json[] | undefined) ?? [];
    switch (type) {
      case 'Limit':
        return this.shapesOf(children[0], text, stmt, Math.max(1, Math.round(Number(node['Plan Rows']) || 1)), rewrites);
      case 'ModifyTable': {
        const op = String(node.Operation);
        const table = await this.table(String(node['Relation Name']));
        if (op === 'Insert') {
          stmt.shapes.push({
            kind: 'append',
            table: table.layout,
            rowsPerPage: table.rowsPerPage,
            indexes: table.indexes.map((ix) => ({ index: ix.path, keyMin: ix.keyMin, keyMax: ix.keyMax, key: insertedKey(text, ix) })),
          });
          for (const c of children) if (c['Node Type'] !== 'Result') await this.shapesOf(c, text, stmt, undefined, 0);
          return;
        }
        if (op === 'Update' || op === 'Delete') {
          const moves = op === 'Update' ? table.moves : undefined;
          stmt.notes.push(
            `${op === 'Update' ? 'An UPDATE' : 'A DELETE'} is modelled as reading and rewriting each row\u2019s heap page and pinning its visibility-map page${
              op !== 'Update'
                ? ''
                : moves
                  ? `; ${table.name}'s pages are full as loaded, so the first update of each moves the new version to another page (the free-space map ` +
                    `searched when that one fills) with a new entry in every index, later ones fitting where pruning made room`
                  : table.roomOnPage === undefined
                    ? ` (a HOT update; without column statistics for ${table.name}, whether its pages have room is not known)`
                    : ' (a HOT update: its pages have room)'
            }.`,
          );
          this.moving = moves;
          try {
            for (const c of children) await this.shapesOf(c, text, stmt, undefined, 1);
          } finally {
            this.moving = undefined;
          }
          return;
        }
        throw new NotModelled(`${op} statements are not modelled in a workload yet`);
      }
      case 'Index Scan':
      case 'Index Only Scan':
        return this.indexShape(node, text, stmt, limit, rewrites, type === 'Index Only Scan');
      case 'Bitmap Heap Scan': {
        const inner = children.find((c) => c['Node Type'] === 'Bitmap Index Scan');
        if (!inner) throw new NotModelled(`a bitmap heap scan over ${children.map((c) => c['Node Type']).join(', ')} is not modelled`);
        stmt.notes.push('A bitmap heap scan is modelled as an index scan (its heap pages in key order, each once per row).');
        return this.indexShape({ ...inner, 'Relation Name': node['Relation Name'], 'Plan Rows': node['Plan Rows'] }, text, stmt, limit, rewrites, false);
      }
      case 'Seq Scan': {
        const table = await this.table(String(node['Relation Name']));
        stmt.shapes.push({ kind: 'scan', table: table.layout, limit, ...(rewrites ? { rewrites, companion: table.vmPage } : {}) });
        stmt.notes.push(
          `A sequential scan of ${table.name} reads all ${table.layout.pages.toLocaleString('en-US')} pages${limit ? ' up to its LIMIT' : ''}; its ring ` +
          `buffer (for tables over a quarter of shared buffers) is not modelled in a workload.`,
        );
        return;
      }
      case 'Result':
      case 'Aggregate':
      case 'Sort':
      case 'LockRows':
      case 'Unique':
      case 'Materialize':
      case 'Incremental Sort':
        for (const c of children) await this.shapesOf(c, text, stmt, type === 'LockRows' ? limit : undefined, rewrites);
        return;
      default:
        throw new NotModelled(
          `a plan with a ${type} node is not modelled in a workload yet (supported: index, index-only, bitmap and sequential scans, LIMIT, aggregates, ` +
          `sorts, INSERT, UPDATE, DELETE)`,
        );
    }
  }

  private async indexShape(node: Json, text: string, stmt: CompiledStatement, limit: number | undefined, rewrites: number, indexOnly: boolean): Promise<void> {
    const table = await this.table(String(node['Relation Name']));
    const ix = table.indexes.find((i) => i.name === node['Index Name']);
    if (!ix) throw new NotModelled(`index ${String(node['Index Name'])} was not found in the catalogs`);
    if (!ix.numeric) throw new NotModelled(`index ${ix.name} is on a non-numeric column (${ix.firstColumn}); only numeric keys are placed on their leaves`);
    const cond = keyCondition(text, ix.firstColumn);
    const correlated = ix.correlation !== null && ix.correlation > 0.9;
    const rows: RowTarget = {
      kind: 'heap',
      table: table.layout,
      correlated,
      ...(indexOnly ? { skip: table.allVisible } : {}),
      ...(rewrites ? { companion: table.vmPage } : {}),
      ...(rewrites && this.moving === table.moves && table.moves ? { moves: this.searchedFirst(table.moves, ix.path) } : {}),
    };
    const base = { index: ix.path, keyMin: ix.keyMin, keyMax: ix.keyMax, rows, rewrites, limit };
    if (cond.kind === 'equal') {
      const rowsPerKey = ix.unique ? 1 : Math.max(1, Math.round(Number(node['Plan Rows']) || 1));
      if (!ix.unique) stmt.notes.push(`${ix.name}: ${rowsPerKey} rows per key, the planner's estimate for the sampled value.`);
      stmt.shapes.push({ kind: 'lookup', key: cond.key, rowsPerKey, ...base });
    } else if (cond.kind === 'range') {
      stmt.shapes.push({
        kind: 'range',
        from: cond.from ?? { constant: ix.keyMin },
        to: cond.to ?? { constant: ix.keyMax },
        rowsPerKeyUnit: ix.tuples / Math.max(1, ix.keyMax - ix.keyMin + 1),
        ...base,
      });
    } else {
      throw new NotModelled(`the statement's condition on ${ix.firstColumn} (index ${ix.name}) is not a comparison with a :variable or a number`);
    }
    if (!correlated)
      stmt.notes.push(
        `${table.name}'s rows are not in ${ix.firstColumn} order (correlation ${ix.correlation === null ? 'unknown' : ix.correlation.toFixed(2)}): each ` +
        `key's row is placed at a stable pseudo-random block.`,
      );
  }

  private async table(name: string): Promise<PgTable> {
    const known = this.tables.get(name);
    if (known) return known;
    const r = await this.client.query(
      `SELECT c.oid, c.relname, pg_relation_size(c.oid) / current_setting('block_size')::int AS blocks,
              greatest(c.reltuples, 0)::float8 AS tuples, c.relallvisible::float8 / nullif(c.relpages, 0) AS all_visible
         FROM pg_class c WHERE c.relname = $1 AND pg_table_is_visible(c.oid) AND c.relkind IN ('r', 'm', 'p')`,
      [name],
    );
    if (r.rows.length === 0) throw new NotModelled(`table ${name} was not found`);
    const row = r.rows[0];
    const id = this.relationId(name);
    const pages = Math.max(1, Number(row.blocks));
    const tuples = Number(row.tuples) > 0 ? Number(row.tuples) : pages * (await this.rowsPerEmptyPage(Number(row.oid)));
    const layout: TableLayout = { name, pages, rows: tuples, page: (k) => pageId(id, k), correlated: true };
    const vmId = this.relationId(`${name} (visibility map)`);
    const table: PgTable = {
      name,
      layout,
      vmPage: (k) => pageId(vmId, Math.floor(k / HEAP_BLOCKS_PER_VM_PAGE)),
      allVisible: Math.min(1, Number(row.all_visible ?? 0)),
      rowsPerPage: Math.max(1, tuples / pages),
      indexes: [],
      roomOnPage: await this.roomOnPage(name, tuples / pages),
    };
    const ix = await this.client.query(
      `SELECT ic.relname, i.indisunique AS unique, a.attname, pg_relation_size(ic.oid) / current_setting('block_size')::int AS blocks,
              greatest(ic.reltuples, 0)::float8 AS tuples,
              a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype, 'float4'::regtype, 'float8'::regtype) AS numeric,
              (a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%') AS ascending,
              (SELECT s.correlation FROM pg_stats s JOIN pg_namespace n ON n.nspname = s.schemaname
                WHERE n.oid = c.relnamespace AND s.tablename = c.relname AND s.attname = a.attname) AS correlation
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE i.indrelid = $1 AND ic.relam = (SELECT oid FROM pg_am WHERE amname = 'btree')`,
      [row.oid],
    );
    for (const x of ix.rows) {
      let keyMin = 0;
      let keyMax = 0;
      if (x.numeric) {
        // Two index-endpoint probes: the first and last leaf, not a scan.
        const m = await this.client.query(
          `SELECT min(${quoteIdent(x.attname)})::float8 AS lo, max(${quoteIdent(x.attname)})::float8 AS hi FROM ${quoteIdent(name)}`,
        );
        keyMin = Number(m.rows[0].lo ?? 0);
        keyMax = Number(m.rows[0].hi ?? 0);
      }
      table.indexes.push(this.index(x, table, keyMin, keyMax));
    }
    if (table.roomOnPage === false) {
      const fsmId = this.relationId(`${name} (free space map)`);
      table.moves = {
        target: (m) => pageId(id, pages + m),
        targetCompanion: (m) => table.vmPage(pages + m),
        perPage: Math.max(1, Math.floor(table.rowsPerPage)),
        fsm: [0, 1, 2].map((k) => pageId(fsmId, k)),
        indexes: table.indexes.map((i) => ({ path: i.path, unique: i.unique })),
      };
    }
    this.tables.set(name, table);
    return table;
  }

  /**
   * Whether a heap page as the table is now has room for one more version of a row: the page less its
   * header, less its rows (each a MAXALIGNed 24-byte header and the columns' average widths, and a line
   * pointer), against one row. Undefined without column statistics.
   */
  private async roomOnPage(name: string, rowsPerPage: number): Promise<boolean | undefined> {
    const r = await this.client.query(
      `SELECT sum(s.avg_width)::float8 AS width FROM pg_stats s WHERE s.tablename = $1 AND s.schemaname = ANY (current_schemas(false))`,
      [name],
    );
    const width = r.rows[0]?.width;
    if (width === null || width === undefined) return undefined;
    const tuple = Math.ceil((24 + Number(width)) / 8) * 8;
    // Rounded: the average counts the last, partly filled page too (pgbench_accounts: 60.998 rows a page).
    return this.blockSize - 24 - Math.round(rowsPerPage) * (tuple + 4) >= tuple + 4;
  }

  /** Rows a page of a table with no statistics yet holds: tuple header, line pointer, fixed-width columns. */
  private async rowsPerEmptyPage(oid: number): Promise<number> {
    const r = await this.client.query(
      'SELECT coalesce(sum(CASE WHEN attlen > 0 THEN attlen ELSE 8 END), 0)::int AS bytes FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT ' +
      'attisdropped',
      [oid],
    );
    const tuple = 24 + Math.ceil(Number(r.rows[0].bytes) / 8) * 8 + 4;
    return Math.max(1, Math.floor((this.blockSize - 24) / tuple));
  }

  private index(x: Json, table: PgTable, keyMin: number, keyMax: number): PgIndex {
    const name = String(x.relname);
    const id = this.relationId(name);
    const blocks = Math.max(1, Number(x.blocks));
    const tuples = Number(x.tuples) || table.layout.rows;
    // Block 0 is the metapage; a fresh build puts the leaves first and the levels above after them,
    // but only distinct ids matter to the pool, not where they sit.
    const leafPages = Math.max(1, Math.round(blocks * 0.99) - 1);
    const perLeaf = Math.max(2, tuples / leafPages);
    const path = btreePath(
      name,
      (k) => pageId(id, 1 + k),
      (level, k) => pageId(id, 1 + leafPages + level * (Math.ceil(leafPages / 2) + 1) + k),
      leafPages,
      perLeaf,
      Math.max(2, Math.floor(perLeaf)),
    );
    return {
      name,
      unique: x.unique === true,
      firstColumn: String(x.attname),
      numeric: x.numeric === true,
      ascending: x.ascending === true,
      correlation: x.correlation === null || x.correlation === undefined ? null : Number(x.correlation),
      keyMin,
      keyMax,
      path,
      tuples,
    };
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
