// A workload's access shapes on InnoDB (MySQL, MariaDB): each statement EXPLAINed with one draw of its
// parameters, its access type reduced to shapes on the B-trees, and each index's geometry from
// mysql.innodb_index_stats. Rows live in the clustered index: a secondary lookup descends it again per
// row, at the row's primary key, which a secondary key does not predict (a stable pseudo-random leaf).
import type { Connection } from 'mysql2/promise';
import { InnodbPool } from '../sim/policies/innodb-lru';
import { SeededRandom } from '../sim/random';
import type { CompiledScript, CompiledStatement, CompiledWorkload } from './compiled';
import type { Value } from './expression';
import { keyCondition } from './key-binding';
import { btreePath, type IndexPath, type TableLayout } from './layout';
import { columnBytes } from '../measure/innodb/catalog';
import { isSortedBuild } from '../predict/innodb/index-pages';
import { changedEntries, leafSplits, PURGE_NOTE, purgeOf } from './innodb-writes';
import { rollbackSegments, TRANSACTION_NOTE } from './innodb-segments';
import { insertedKey, statementRole } from './statement-text';
import { executeScript, type WorkloadScript } from './script';
import { parseInnodbPlan, type TableAccess } from '../predict/innodb/plan';
import type { AccessShape, AppendShape, RollbackSegments, RowTarget } from './shapes';

type Json = Record<string, unknown>;

class NotModelled extends Error {}

/** Each index's pages get their own range of page ids; a B-tree's first leaf is at page 64, past the fragment extent. */
const SPACE = 0x1000000;
const FIRST_LEAF = 64;
/** Non-leaf pages, numbered apart from the leaves so no read-ahead area mixes them. */
const NODE_PAGES = 0x800000;
/** Undo log pages a write fills, in their own range. */
const UNDO_RECORDS_PER_PAGE = 60;

interface InnodbIndex {
  name: string;
  clustered: boolean;
  unique: boolean;
  firstColumn: string;
  /** Every key column, lower case. */
  columns: string[];
  numeric: boolean;
  keyMin: number;
  keyMax: number;
  path: IndexPath;
  ascending: boolean;
  /** The index's own range of page ids (space * SPACE …). */
  space: number;
}

interface InnodbTable {
  name: string;
  rows: number;
  clustered: InnodbIndex;
  secondaries: InnodbIndex[];
}

const RECORD_HEADER = 5;

export class InnodbWorkloadModel {
  private readonly tables = new Map<string, InnodbTable>();
  private spaces = 0;
  private pageSize = 16384;
  private undo: TableLayout | undefined;
  /** Per secondary index's space: its table's change-buffer bitmap page (page 1 of the tablespace). */
  private readonly bitmapOfSpace = new Map<number, number>();

  /** How the server's records_in_range descends to a range's two bounds (MariaDB: one descent for both). */
  private dive: 'shared' | 'separate' = 'separate';

  constructor(private readonly conn: Connection) {}

  private async rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    const [r] = await this.conn.query(sql, values);
    return r as T[];
  }

  /** A global status variable's value, undefined where the server has none. */
  private async globalStatus(name: string): Promise<number | undefined> {
    const [r] = await this.rows<Json>('SELECT VARIABLE_VALUE AS n FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = ?', [name]);
    return r?.n === undefined || r.n === null ? undefined : Number(r.n);
  }

  async compile(scripts: WorkloadScript[], fixed: Map<string, Value>): Promise<CompiledWorkload> {
    const [v] = await this.rows<Json>(
      'SELECT @@innodb_page_size AS ps, @@innodb_buffer_pool_size AS bytes, VERSION() AS version, @@innodb_old_blocks_pct AS old_pct, ' +
        '@@innodb_old_blocks_time AS old_time, @@innodb_read_ahead_threshold AS ra, @@innodb_lru_scan_depth AS scan_depth',
    );
    this.pageSize = Number(v.ps);
    const version = String(v.version);
    const product = /mariadb/i.test(version) ? 'mariadb' : 'mysql';
    this.dive = product === 'mariadb' ? 'shared' : 'separate';
    const purgeLag = (await this.globalStatus('INNODB_HISTORY_LIST_LENGTH')) || 0;
    const configured = Math.round(Number(v.bytes) / this.pageSize);
    const poolPages = (await this.globalStatus('INNODB_BUFFER_POOL_PAGES_TOTAL')) ?? configured;
    const usable = poolPages / configured;
    const rnd = new SeededRandom(0x5eed);
    const compiled: CompiledScript[] = [];
    for (const script of scripts) {
      const { sql } = executeScript(script, { variables: new Map(fixed), random: rnd });
      const templates = script.commands.filter((c) => c.kind === 'sql') as Array<{ text: string; line: number }>;
      const statements: CompiledStatement[] = [];
      for (let i = 0; i < templates.length; i++) statements.push(await this.compileStatement(templates[i].text, templates[i].line, sql[i]));
      const firstWrite = statements.find((st) => st.role === 'write' && !st.notModelled);
      if (firstWrite) {
        firstWrite.shapes.unshift({ kind: 'transaction', segments: this.segments() });
        // Purge reads each committed transaction's undo log back, a get per page of it (not per record: pgbench
        // tpcb-like measured 20.1-20.8 gets per transaction, 18-19 predicted without it, 23 with a get per record).
        const undo = firstWrite.shapes.find((sh): sh is AppendShape => sh.kind === 'append' && sh.table === this.undo);
        if (undo) firstWrite.purge = [{ kind: 'appended', of: undo }, ...(firstWrite.purge ?? [])];
        firstWrite.notes.push(TRANSACTION_NOTE);
      }
      compiled.push({ script, statements });
    }
    const relations = [...this.tables.values()].flatMap((t) =>
      [t.clustered, ...t.secondaries].map((i) => ({ name: `${t.name}.${i.name}`, pages: i.path.leafPages })),
    );
    // MariaDB 10.5+'s page cleaner keeps innodb_lru_scan_depth pages free: in a small pool most of it.
    const [major, minor] = version.split(/[.-]/).map(Number);
    const cleaner =
      product === 'mariadb' && (major > 10 || (major === 10 && minor >= 5)) ? { pageCleaner: { lruScanDepth: Number(v.scan_depth ?? 1536) } } : {};
    // MariaDB fetches the change-buffer bitmap page when a secondary leaf is read from disk, whatever
    // innodb_change_buffering says (the per-statement model's rule, predict/innodb/predictor.ts).
    const bitmap = product === 'mariadb' ? { ibufBitmapOf: (p: number) => this.ibufBitmapOf(p) } : {};
    const options = {
      product,
      oldBlocksPct: Number(v.old_pct),
      oldBlocksTime: Number(v.old_time),
      readAheadThreshold: Number(v.ra),
      ...cleaner,
      ...bitmap,
    } as const;
    return {
      engine: 'innodb',
      server: `${product === 'mariadb' ? 'MariaDB' : 'MySQL'} ${version.split('-')[0]}`,
      scripts: compiled,
      fixed,
      poolPages,
      pageBytes: this.pageSize,
      relations,
      // What-if sizes keep the share of the configured pool the server gives the LRU list.
      makePool: (pages, msPerAccess) => {
        // The cleaner is woken on demand (see InnodbPool): measured (scripts/sysbench-check.ts, oltp_read_only,
        // MariaDB 10.11): 1,113-1,171 of 1,536 pages free on average at 32, 64 and 96 MiB alike.
        return new InnodbPool(pages, { ...options, ...(msPerAccess ? { msPerAccess } : {}) });
      },
      purgeLag,
      notes: [
        'Each statement was EXPLAINed with one draw of its parameters; every execution is taken to use that plan.',
        ...(compiled.some((c) => c.statements.some((st) => st.purge))
          ? [
              `Purge reaches a transaction's writes ${purgeLag.toLocaleString('en-US')} transactions after it (the server's history list length ` +
                'when the workload was compiled); the further behind, the more of what it reads has left the pool.',
            ]
          : []),
        'Keys are placed on each B-tree by their share of the first column\u2019s range; a secondary lookup\u2019s row is at a stable ' +
          'pseudo-random leaf of the clustered index.',
        `Pool sizes count the pages InnoDB gives its LRU list (${(usable * 100).toFixed(1)} % of the configured size on this server).`,
        ...(cleaner.pageCleaner
          ? [
              `The page cleaner keeps between ${Math.floor(cleaner.pageCleaner.lruScanDepth / 2).toLocaleString('en-US')} and ` +
                `${cleaner.pageCleaner.lruScanDepth.toLocaleString('en-US')} pages free (innodb_lru_scan_depth), woken on demand by the threads that ` +
                'take them: those pages hold no data.',
            ]
          : []),
        'The change buffer, the system tablespace\u2019s pages and other sessions\u2019 pages are not in the workload model.',
      ],
    };
  }

  private async compileStatement(text: string, line: number, sample: string): Promise<CompiledStatement> {
    const classified = statementRole(text, 'mysql');
    const role = classified === 'other' ? 'read' : classified;
    const stmt: CompiledStatement = { text, line, role, shapes: [], notes: [] };
    if (role === 'control') return stmt;
    try {
      if (/^\s*insert\b/i.test(text) && /\bvalues\b/i.test(text)) await this.insertShapes(text, stmt);
      else {
        const [row] = await this.rows<{ EXPLAIN: string }>(`EXPLAIN FORMAT=JSON ${sample}`);
        const plan = JSON.parse(Object.values(row)[0] as string) as Json;
        await this.blockShapes(plan, text, stmt, role === 'write');
      }
    } catch (err) {
      if (err instanceof NotModelled) {
        stmt.shapes = [];
        stmt.notModelled = err.message;
      } else if ((err as { sqlMessage?: string }).sqlMessage) {
        stmt.notModelled = `EXPLAIN failed: ${(err as { sqlMessage: string }).sqlMessage}`;
      } else throw err;
    }
    return stmt;
  }

  /** The plan's table accesses, walked as the per-statement model walks them (predict/innodb/plan.ts): sorts, DISTINCT and subqueries included. */
  private async blockShapes(plan: Json, text: string, stmt: CompiledStatement, write: boolean): Promise<void> {
    const { accesses } = parseInnodbPlan(plan);
    if (accesses.length > 1) throw new NotModelled('joins are not modelled in a workload yet');
    if (accesses.length === 0) {
      const block = plan.query_block as Json | undefined;
      // A plan that reads no table (no tables used, an impossible WHERE) requests no page.
      if (block && (block.message || block.const_row_not_found || block.table)) return;
      throw new NotModelled('the plan has no table access this model reads');
    }
    for (const access of accesses) await this.tableShape(access, text, stmt, write);
  }

  private async tableShape(t: TableAccess, text: string, stmt: CompiledStatement, write: boolean): Promise<void> {
    const table = await this.table(t.table);
    const access = t.accessType;
    const limit = /\blimit\s+(\d+)\s*;?\s*$/i.exec(text) ? Number(/\blimit\s+(\d+)/i.exec(text)![1]) : undefined;
    // A row changed in place on the leaf its search holds: no second get of the leaf (measured on MariaDB 10.11:
    // a non-index UPDATE by primary key takes 4 gets, the 3-level descent and the undo page).
    const rewrites = 0;
    if (access === 'ALL') {
      const c = table.clustered;
      stmt.shapes.push({
        kind: 'scan',
        table: { name: table.name, pages: c.path.leafPages, rows: table.rows, page: (k) => c.path.leaf(k), correlated: true },
        limit,
      });
      return;
    }
    const ix = [table.clustered, ...table.secondaries].find((i) => i.name === t.key);
    if (!ix) throw new NotModelled(`index ${String(t.key)} of ${table.name} was not found`);
    if (!ix.numeric) throw new NotModelled(`index ${ix.name} is on a non-numeric column (${ix.firstColumn}); only numeric keys are placed on their leaves`);
    const rows: RowTarget | undefined = ix.clustered || t.usingIndex ? undefined : { kind: 'clustered', index: table.clustered.path, correlated: false };
    const entries = write ? changedEntries(table.secondaries, text) : [];
    const base = { index: ix.path, keyMin: ix.keyMin, keyMax: ix.keyMax, rows, rewrites, limit, ...(entries.length ? { entries } : {}) };
    const cond = keyCondition(text, ix.firstColumn);
    let shape: AccessShape;
    if (cond.kind === 'equal' && ['const', 'eq_ref', 'ref', 'system'].includes(access)) {
      const rowsPerKey = ix.unique ? 1 : Math.max(1, Math.round(t.rows || 1));
      shape = { kind: 'lookup', key: cond.key, rowsPerKey, ...base };
    } else if (cond.kind === 'range' || (access === 'range' && cond.kind === 'equal')) {
      // A range is estimated by a dive, but not one value of a unique key (a single-row UPDATE's plan shows a
      // range of one row): at most one row, as the per-statement model has it (predict/innodb/read-replay.ts).
      const dived = access === 'range' && !(cond.kind === 'equal' && ix.unique);
      const from = cond.kind === 'range' ? cond.from : cond.key;
      const to = cond.kind === 'range' ? cond.to : cond.key;
      shape = {
        kind: 'range',
        from: from ?? { constant: ix.keyMin },
        to: to ?? { constant: ix.keyMax },
        rowsPerKeyUnit: table.rows / Math.max(1, ix.keyMax - ix.keyMin + 1),
        ...(dived ? { dive: this.dive } : {}),
        ...base,
      };
      if (dived)
        stmt.notes.push('Each execution is optimised anew: the range is estimated by an index dive (records_in_range) on its bounds before it is read.');
    } else throw new NotModelled(`access ${access} on ${ix.name} with this condition is not modelled in a workload yet`);
    stmt.shapes.push(shape);
    if (write) {
      const undo: AppendShape = { kind: 'append', table: this.undoLog(), rowsPerPage: UNDO_RECORDS_PER_PAGE, indexes: [], segments: this.segments() };
      stmt.shapes.push(undo);
      stmt.purge = purgeOf(shape, entries, /^\s*delete\b/i.test(text));
      stmt.notes.push(
        `A write is modelled as its row lookup, the row changed in place, one undo record${changedEntriesNote(entries)}, and its purge later ` +
          `(${PURGE_NOTE}), the first insert into a full secondary leaf splitting it; the change buffer is not modelled.`,
      );
    }
  }

  private async insertShapes(text: string, stmt: CompiledStatement): Promise<void> {
    const m = /insert\s+into\s+`?([A-Za-z0-9_$]+)`?/i.exec(text);
    if (!m) throw new NotModelled('the INSERT\u2019s table was not read');
    const table = await this.table(m[1]);
    const c = table.clustered;
    const key = insertedKey(text, c);
    const indexes = table.secondaries.map((ix) => ({ index: ix.path, keyMin: ix.keyMin, keyMax: ix.keyMax, key: insertedKey(text, ix) }));
    // The clustered leaf the row goes to is the table's "heap" page here.
    // An ascending key lands on the last leaf, reached from the root like any other.
    const row: AccessShape = {
      kind: 'lookup',
      index: c.path,
      keyMin: c.keyMin,
      keyMax: c.keyMax,
      key: key === 'ascending' ? { constant: c.keyMax } : key,
      rowsPerKey: 1,
      rewrites: 0,
    };
    const undo: AppendShape = { kind: 'append', table: this.undoLog(), rowsPerPage: UNDO_RECORDS_PER_PAGE, indexes, segments: this.segments() };
    stmt.shapes.push(row, undo);
    stmt.notes.push(
      'An INSERT is modelled as the descent to its clustered leaf, one undo record and the descent to each secondary index\u2019s leaf, where ' +
        'the first insert into a full leaf splits it (purge removes nothing of it); the change buffer is not modelled.',
    );
  }

  /** A secondary leaf's bitmap page; -1 for any other page (node pages, clustered leaves, undo). */
  private ibufBitmapOf(page: number): number {
    const space = Math.floor(page / SPACE);
    if (page - space * SPACE >= NODE_PAGES) return -1;
    return this.bitmapOfSpace.get(space) ?? -1;
  }

  private rollbackSegments: RollbackSegments | undefined;

  /** The rollback segments' pages, in a space of their own. */
  private segments(): RollbackSegments {
    if (!this.rollbackSegments) this.rollbackSegments = rollbackSegments(this.spaces++ * SPACE);
    return this.rollbackSegments;
  }

  private undoLog(): TableLayout {
    if (!this.undo) {
      const space = this.spaces++;
      this.undo = { name: 'undo log', pages: 1, rows: 0, page: (k) => space * SPACE + FIRST_LEAF + k, correlated: true };
    }
    return this.undo;
  }

  private async table(name: string): Promise<InnodbTable> {
    const known = this.tables.get(name);
    if (known) return known;
    const stats = await this.rows<Json>(
      `SELECT s.index_name AS i, MAX(CASE WHEN s.stat_name = 'n_leaf_pages' THEN s.stat_value END) AS leaf,
              MAX(CASE WHEN s.stat_name = 'size' THEN s.stat_value END) AS size, MAX(t.n_rows) AS n_rows
         FROM mysql.innodb_index_stats s JOIN mysql.innodb_table_stats t ON t.database_name = s.database_name AND t.table_name = s.table_name
        WHERE s.database_name = DATABASE() AND s.table_name = ? GROUP BY s.index_name`,
      [name],
    );
    if (stats.length === 0)
      throw new NotModelled(`no index statistics for ${name} in mysql.innodb_index_stats (run ANALYZE TABLE ${name}, or grant SELECT on it)`);
    const allParts = await this.rows<Json>(
      `SELECT s.INDEX_NAME AS i, s.COLUMN_NAME AS c, s.NON_UNIQUE AS nu, c.DATA_TYPE AS type, c.EXTRA AS extra, s.SEQ_IN_INDEX AS seq,
              c.CHARACTER_OCTET_LENGTH AS octets, c.NUMERIC_PRECISION AS prec
         FROM information_schema.STATISTICS s JOIN information_schema.COLUMNS c
           ON c.TABLE_SCHEMA = s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME
        WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = ?`,
      [name],
    );
    const parts = allParts.filter((p) => Number(p.seq) === 1);
    const columnsOf = (index: string) => allParts.filter((p) => p.i === index).map((p) => String(p.c).toLowerCase());
    // A secondary entry holds its own columns and the primary key's (catalog.ts's sizes, as the per-statement model has them).
    const bytesOf = (p: Json) => columnBytes(String(p.type), p.octets === null ? null : Number(p.octets), p.prec === null ? null : Number(p.prec));
    const primary = allParts.filter((p) => p.i === 'PRIMARY');
    const entryBytes = (index: string) => {
      const own = allParts.filter((p) => p.i === index);
      const names = new Set(own.map((p) => p.c));
      return [...own, ...primary.filter((p) => !names.has(p.c))].reduce((a, p) => a + bytesOf(p), 0) + (primary.length ? 0 : 6) + RECORD_HEADER;
    };
    const rows = Number(stats[0].n_rows) || 1;
    const indexes: InnodbIndex[] = [];
    for (const st of stats) {
      const index = String(st.i);
      const part = parts.find((p) => p.i === index) ?? (index === 'GEN_CLUST_INDEX' ? undefined : parts.find((p) => p.i === 'PRIMARY'));
      const numeric = part !== undefined && /int|decimal|float|double|numeric/i.test(String(part.type));
      let keyMin = 0;
      let keyMax = 0;
      if (numeric && part) {
        const [mm] = await this.rows<Json>(`SELECT MIN(\`${String(part.c)}\`) AS lo, MAX(\`${String(part.c)}\`) AS hi FROM \`${name}\``);
        keyMin = Number(mm.lo ?? 0);
        keyMax = Number(mm.hi ?? 0);
      }
      const leafPages = Math.max(1, Number(st.leaf) || 1);
      const space = this.spaces++;
      const perLeaf = Math.max(2, rows / leafPages);
      // Node pointers of a numeric key are about 14 bytes (key, child page number, record header, slot):
      // the statistics' size counts reserved extents too, so it cannot tell the levels.
      const fanout = Math.max(2, Math.floor((this.pageSize * 0.9) / 14));
      const path = btreePath(
        index,
        (k) => space * SPACE + FIRST_LEAF + k,
        (level, k) => space * SPACE + NODE_PAGES + level * 0x10000 + k,
        leafPages,
        perLeaf,
        fanout,
      );
      // A sorted build (CREATE INDEX) leaves no room in a secondary leaf: the first insert into each splits it.
      const secondary = index !== 'PRIMARY' && index !== 'GEN_CLUST_INDEX';
      if (secondary && isSortedBuild({ rows, leafPages, entryBytes: entryBytes(index) }, this.pageSize))
        path.splits = leafSplits(path, (k) => space * SPACE + FIRST_LEAF + leafPages + k, space * SPACE);
      indexes.push({
        name: index,
        clustered: index === 'PRIMARY' || index === 'GEN_CLUST_INDEX',
        unique: index === 'PRIMARY' || Number(part?.nu ?? 1) === 0,
        firstColumn: String(part?.c ?? ''),
        columns: columnsOf(index),
        numeric,
        keyMin,
        keyMax,
        path,
        ascending: /auto_increment/i.test(String(part?.extra ?? '')),
        space,
      });
    }
    const clustered = indexes.find((i) => i.clustered);
    if (!clustered) throw new NotModelled(`${name} has no clustered index statistics`);
    for (const ix of indexes) if (!ix.clustered) this.bitmapOfSpace.set(ix.space, clustered.space * SPACE + 1);
    const table: InnodbTable = { name, rows, clustered, secondaries: indexes.filter((i) => !i.clustered) };
    this.tables.set(name, table);
    return table;
  }
}

/** The changed secondary entries a write note names, where there are any. */
function changedEntriesNote(entries: Array<{ index: { name: string } }>): string {
  if (entries.length === 0) return '';
  return ` and each changed secondary entry (${entries.map((e) => e.index.name).join(', ')}: its leaf at a place the row's key does not predict)`;
}
