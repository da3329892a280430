// What a MySQL/MariaDB statement reaches beyond what its text names, resolved through the server's
// catalogs: the tables it names, the base tables of its views, the stored functions it calls and the
// procedures those CALL, and, for a data-changing statement, the triggers and column defaults of its
// tables, each followed into its body. A rollback undoes
// InnoDB changes only: a non-transactional table, a global setting, a file written or an advanced
// sequence or AUTO_INCREMENT counter stays.
import type { Connection } from 'mysql2/promise';
import { maskSql } from '../../sql/mask';
import type { Reached } from '../gate';

export interface InnodbSideEffects {
  /** Non-transactional tables a data-changing statement reaches. */
  nonTransactional: Array<{ table: string; engine: string }>;
  /** Effects a rollback cannot undo, found in routine and trigger bodies. */
  outside: string[];
  /** Sequences (MariaDB) a data-changing statement reaches. */
  sequences: string[];
  /** Tables with an AUTO_INCREMENT counter a data-changing statement reaches, as schema.table. */
  autoIncrement: Array<{ schema: string; table: string }>;
  /** Stored functions reached, named before running. */
  routines: string[];
  /** Every base table reached (named, behind a view, in a reached function or trigger), for residency. */
  tables: Array<{ schema: string; table: string }>;
}

interface Name {
  schema?: string;
  name: string;
}

/** Body statements whose effect a rollback does not undo. */
const OUTSIDE: Array<[RegExp, string]> = [
  [/\bSET\s+(?:GLOBAL\b|@@GLOBAL\.)/i, 'changes a global setting'],
  [/\bINTO\s+(?:OUTFILE|DUMPFILE)\b/i, 'writes a file on the server'],
  [/\b(?:FLUSH|KILL|SHUTDOWN|INSTALL|UNINSTALL|RESET|PURGE)\b/i, 'acts on the whole server'],
  [/\bPREPARE\b|\bEXECUTE\b/i, 'runs dynamic SQL, which cannot be checked before it runs'],
];

const ident = (quoted: string | undefined, bare: string | undefined) => (quoted !== undefined ? quoted.replace(/``/g, '`') : bare!);

/**
 * Every name, or schema.name, in text whose literals and comments are blanked out. A name must start
 * where no name character precedes it, which keeps the scan linear on any input.
 */
export function namesIn(masked: string): { names: Name[]; calls: Name[] } {
  const names: Name[] = [];
  const calls: Name[] = [];
  const re = /(?<![\w$`])(?:`((?:[^`]|``){1,64})`|([A-Za-z_$][\w$]{0,63}))(?:\s*\.\s*(?:`((?:[^`]|``){1,64})`|([A-Za-z_$][\w$]{0,63})))?(\s*\()?/g;
  for (const m of masked.matchAll(re)) {
    const first = ident(m[1], m[2]);
    const n: Name = m[3] !== undefined || m[4] !== undefined ? { schema: first, name: ident(m[3], m[4]) } : { name: first };
    names.push(n);
    if (m[5]) calls.push(n);
    if (names.length + calls.length > 5000) break;
  }
  return { names, calls };
}

/** namesIn, with a procedure named by CALL counted as a call whether or not parentheses follow it. */
function namesAndCalls(masked: string): { names: Name[]; calls: Name[] } {
  const found = namesIn(masked);
  for (const m of masked.matchAll(
    /\bCALL\s+(?:`((?:[^`]|``){1,64})`|([A-Za-z_$][\w$]{0,63}))(?:\s*\.\s*(?:`((?:[^`]|``){1,64})`|([A-Za-z_$][\w$]{0,63})))?/gi,
  )) {
    const first = ident(m[1], m[2]);
    found.calls.push(m[3] !== undefined || m[4] !== undefined ? { schema: first, name: ident(m[3], m[4]) } : { name: first });
  }
  return found;
}

interface TableRow {
  s: string;
  t: string;
  type: string;
  engine: string | null;
  /** The table has an AUTO_INCREMENT column (from COLUMNS: reading TABLES.AUTO_INCREMENT would open the table and read its root page). */
  ai: number;
}

export async function findInnodbSideEffects(conn: Connection, statement: string, currentDb: string | null, dataChanging: boolean): Promise<InnodbSideEffects> {
  const out: InnodbSideEffects = { nonTransactional: [], outside: [], sequences: [], autoIncrement: [], routines: [], tables: [] };
  const seenTables = new Set<string>();
  const seenBodies = new Set<string>();
  let pending: string[] = [statement];
  for (let depth = 0; pending.length && depth < 6; depth++) {
    const { names, calls } = pending
      .map((text) => namesAndCalls(maskSql(text, 'mysql')))
      .reduce((a, b) => ({ names: [...a.names, ...b.names], calls: [...a.calls, ...b.calls] }), { names: [], calls: [] });
    pending = [];
    const tables = await lookupTables(conn, names, currentDb);
    for (const t of tables) {
      const key = `${t.s}.${t.t}`;
      if (seenTables.has(key)) continue;
      seenTables.add(key);
      if (t.type === 'VIEW') {
        const [v] = await conn.query('SELECT VIEW_DEFINITION AS d FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [t.s, t.t]);
        const d = (v as Array<{ d: string | null }>)[0]?.d;
        if (d) pending.push(d);
        else if (dataChanging) out.outside.push(`the definition of view ${key} cannot be read, so the tables it writes are unknown`);
        continue;
      }
      if (t.type === 'SEQUENCE') {
        if (dataChanging) out.sequences.push(key);
        continue;
      }
      if (t.type === 'BASE TABLE') out.tables.push({ schema: t.s, table: t.t });
      if (!dataChanging) continue;
      if (t.engine && t.engine.toLowerCase() !== 'innodb') out.nonTransactional.push({ table: key, engine: t.engine });
      if (Number(t.ai) === 1) out.autoIncrement.push({ schema: t.s, table: t.t });
      const [trg] = await conn.query(
        'SELECT TRIGGER_NAME AS n, ACTION_STATEMENT AS a FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ?',
        [t.s, t.t],
      );
      for (const r of trg as Array<{ n: string; a: string }>) visitBody(`trigger ${t.s}.${r.n}`, r.a);
      // A column's default runs with every row inserted: a sequence or a function it names is reached too.
      const [defaults] = await conn.query(
        "SELECT COLUMN_DEFAULT AS d FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_DEFAULT LIKE '%(%'",
        [t.s, t.t],
      );
      for (const r of defaults as Array<{ d: string }>) pending.push(r.d);
    }
    for (const r of await lookupRoutines(conn, calls, currentDb)) {
      const name = `${r.s}.${r.n}`;
      out.routines.push(name);
      if (r.d === null) out.outside.push(`the body of ${name} cannot be read (it needs SHOW ROUTINE or the routine's ownership), so what it does is unknown`);
      else visitBody(name, r.d);
    }
  }
  return { ...out, routines: [...new Set(out.routines)] };

  function visitBody(name: string, body: string): void {
    if (seenBodies.has(name)) return;
    seenBodies.add(name);
    const masked = maskSql(body, 'mysql');
    for (const [re, what] of OUTSIDE) if (re.test(masked)) out.outside.push(`${name} ${what}`);
    pending.push(body);
  }
}

async function lookupTables(conn: Connection, names: Name[], currentDb: string | null): Promise<TableRow[]> {
  const qualified = uniq(names.filter((n) => n.schema !== undefined).map((n) => [n.schema!, n.name] as const));
  const bare = [...new Set(names.filter((n) => n.schema === undefined).map((n) => n.name))];
  const where: string[] = [];
  const args: unknown[] = [];
  if (qualified.length) {
    where.push(`(TABLE_SCHEMA, TABLE_NAME) IN (${qualified.map(() => '(?, ?)').join(', ')})`);
    args.push(...qualified.flat());
  }
  if (bare.length && currentDb) {
    where.push('(TABLE_SCHEMA = ? AND TABLE_NAME IN (?))');
    args.push(currentDb, bare);
  }
  if (!where.length) return [];
  // Only columns the server has without opening the table: nothing here may read a page of it.
  const [rows] = await conn.query(
    `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, TABLE_TYPE AS type, ENGINE AS engine,
            EXISTS (SELECT 1 FROM information_schema.COLUMNS c
                     WHERE c.TABLE_SCHEMA = x.TABLE_SCHEMA AND c.TABLE_NAME = x.TABLE_NAME AND c.EXTRA LIKE '%auto_increment%') AS ai
       FROM information_schema.TABLES x WHERE ${where.join(' OR ')}`,
    args,
  );
  return rows as TableRow[];
}

async function lookupRoutines(conn: Connection, calls: Name[], currentDb: string | null): Promise<Array<{ s: string; n: string; d: string | null }>> {
  const pairs = uniq(calls.filter((c) => c.schema !== undefined || currentDb).map((c) => [c.schema ?? currentDb!, c.name] as const));
  if (!pairs.length) return [];
  const [rows] = await conn.query(
    `SELECT ROUTINE_SCHEMA AS s, ROUTINE_NAME AS n, ROUTINE_DEFINITION AS d FROM information_schema.ROUTINES
      WHERE ROUTINE_TYPE IN ('FUNCTION', 'PROCEDURE') AND (ROUTINE_SCHEMA, ROUTINE_NAME) IN (${pairs.map(() => '(?, ?)').join(', ')})`,
    pairs.flat(),
  );
  return rows as Array<{ s: string; n: string; d: string | null }>;
}

function uniq<T extends readonly [string, string]>(pairs: T[]): T[] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const k = `${p[0]}\u0000${p[1]}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Each table's AUTO_INCREMENT counter, read after the runs (reading it opens the table). */
export async function autoIncrementValues(conn: Connection, tables: Array<{ schema: string; table: string }>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of tables) {
    const [rows] = await conn.query('SELECT AUTO_INCREMENT AS ai FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [
      t.schema,
      t.table,
    ]);
    const ai = (rows as Array<{ ai: number | null }>)[0]?.ai;
    if (ai !== null && ai !== undefined) out.set(`${t.schema}.${t.table}`, Number(ai));
  }
  return out;
}

/** What the gate judges (gate.ts): a MariaDB sequence named in a routine may advance, not surely. */
export function innodbReached(fx: InnodbSideEffects): Reached {
  return { outside: fx.outside, nonTransactional: fx.nonTransactional, sequences: fx.sequences, sequencesSurely: false, routines: fx.routines };
}

/** The user holds ALL PRIVILEGES or SUPER on *.* (SHOW GRANTS). */
export async function hasAllPrivileges(conn: Connection): Promise<boolean> {
  const [rows] = await conn.query('SHOW GRANTS');
  return (rows as Array<Record<string, string>>).some((r) => /^GRANT (ALL PRIVILEGES|.*\bSUPER\b).* ON \*\.\* /i.test(Object.values(r)[0] ?? ''));
}
