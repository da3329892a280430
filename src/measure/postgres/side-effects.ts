// What a statement may do beyond its transaction, resolved through the server's catalogs rather than its
// text alone: the functions it calls, the operators it writes, what its views, rules and policies run
// (reached-objects.ts), and the functions those call, and the triggers and column defaults of the tables it
// writes (and of those their rules write), classified from pg_proc. A rollback undoes table changes; it does not undo a
// file written, a remote commit, a replication slot, a signalled backend or an advanced sequence.
import type { Client } from 'pg';
import { maskSql } from '../../sql/mask';
import { aggregateSupport, castFunctions, castTargets, namedRelationOids, operatorFunctions, operatorTokens, rewrittenReach } from './reached-objects';
import { relationNames } from './statement-relations';

export interface SideEffects {
  /** Effects outside the transaction: refused unless the user acknowledges them. */
  outside: string[];
  /** Sequences the statement will advance (not rolled back), by name. */
  sequences: string[];
  /** User-defined volatile functions the statement reaches, named before running. */
  volatile: string[];
}

/** Functions whose effect escapes the transaction, by name (any schema: dblink lives in an extension's). */
const OUTSIDE: Array<[RegExp, string]> = [
  [/^dblink/, 'runs SQL on another connection, which commits on its own'],
  [/^lo_(export|import)$/, 'reads or writes a file on the server'],
  [/^pg_file_(write|unlink|rename|sync)$/, 'changes a file on the server'],
  [
    /^pg_(create|drop|copy)_\w*replication_slot$|^pg_replication_slot_advance$|^pg_replication_origin_(create|drop|advance|session_setup)$/,
    'changes replication state, which is not transactional',
  ],
  [/^pg_(terminate|cancel)_backend$/, 'signals another session'],
  [/^pg_(reload_conf|rotate_logfile|promote|switch_wal|log_backend_memory_contexts|checkpoint)$/, 'acts on the whole server'],
  [/^pg_stat_reset/, 'resets statistics for everyone'],
  [/^pg_logical_emit_message$/, 'writes to the WAL outside the transaction when asked to'],
];

interface ProcRow {
  oid: number;
  proname: string;
  nspname: string;
  provolatile: string;
  lanname: string;
  prosrc: string | null;
  prokind: string;
}

const BUILTIN_SCHEMAS = new Set(['pg_catalog', 'information_schema']);
const MAX_FUNCTIONS = 500;

/** Names written as calls, name( or "Name"(, in text whose literals and comments are blanked out. */
export function calledNames(masked: string): string[] {
  const out = new Set<string>();
  for (const m of masked.matchAll(/(?<![\w$."])(?:([A-Za-z_][\w$]*)|"((?:[^"]|"")+)")\s*\(/g)) out.add(m[1] ? m[1].toLowerCase() : m[2].replace(/""/g, '"'));
  return [...out];
}

/** Sequence names given to nextval/setval as literals ('seq', 'seq'::regclass). */
export function sequenceArguments(text: string): string[] {
  return [...text.matchAll(/\b(?:nextval|setval)\s*\(\s*'([^']{1,200})'/gi)].map((m) => m[1]);
}

export async function findSideEffects(client: Client, statement: string, writtenOids: number[], inserts: boolean): Promise<SideEffects> {
  const outside = new Set<string>();
  const volatile = new Set<string>();
  const sequences = new Set<string>(sequenceArguments(statement));
  const seen = new Set<number>();
  const masked = maskSql(statement, 'postgresql');
  let names = calledNames(masked);
  // What rewrites or runs behind the text: operators' functions, views' queries, rules' actions, policies.
  const read = await rewrittenReach(client, await namedRelationOids(client, relationNames(statement)));
  const written = writtenOids.length ? await rewrittenReach(client, writtenOids, true) : { functions: [], relations: [] };
  let oids: number[] = [
    ...(await operatorFunctions(client, operatorTokens(masked))),
    ...(await castFunctions(client, castTargets(masked))),
    ...read.functions,
    ...written.functions,
  ];
  // A rule of a written table may write others: their triggers and defaults run too.
  writtenOids = written.relations;
  if (writtenOids.length) {
    // Triggers and column defaults of the tables written run as part of the statement.
    const t = await client.query({
      text: `SELECT tgfoid::int AS oid FROM pg_trigger WHERE tgrelid = ANY($1::oid[]) AND NOT tgisinternal AND tgenabled <> 'D'`,
      values: [writtenOids],
    });
    oids.push(...t.rows.map((r) => r.oid));
    const d = await client.query({ text: 'SELECT pg_get_expr(adbin, adrelid) AS expr FROM pg_attrdef WHERE adrelid = ANY($1::oid[])', values: [writtenOids] });
    for (const r of d.rows) {
      names.push(...calledNames(maskSql(r.expr, 'postgresql')));
      if (inserts) sequenceArguments(r.expr).forEach((s) => sequences.add(s));
    }
    if (inserts) {
      const s = await client.query({
        text: `SELECT d.objid::regclass::text AS name FROM pg_depend d JOIN pg_class c ON c.oid = d.objid AND c.relkind = 'S'
                WHERE d.refobjid = ANY($1::oid[]) AND d.deptype IN ('a', 'i')`,
        values: [writtenOids],
      });
      s.rows.forEach((r) => sequences.add(r.name));
    }
  }
  for (let depth = 0; (names.length || oids.length) && seen.size < MAX_FUNCTIONS && depth < 8; depth++) {
    const r = await client.query<ProcRow>({
      text: `SELECT p.oid::int AS oid, p.proname, n.nspname, p.provolatile, l.lanname, p.prosrc, p.prokind
               FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
              WHERE p.proname = ANY($1::text[]) OR p.oid = ANY($2::oid[])`,
      values: [names, oids],
    });
    names = [];
    // An aggregate runs its support functions, which may be anyone's.
    oids = await aggregateSupport(
      client,
      r.rows.filter((f) => f.prokind === 'a' && !seen.has(f.oid)).map((f) => f.oid),
    );
    for (const f of r.rows) {
      if (seen.has(f.oid)) continue;
      seen.add(f.oid);
      const shown = BUILTIN_SCHEMAS.has(f.nspname) ? f.proname : `${f.nspname}.${f.proname}`;
      const rule = OUTSIDE.find(([re]) => re.test(f.proname));
      if (rule) outside.add(`${shown} ${rule[1]}`);
      if (f.proname === 'nextval' || f.proname === 'setval') continue;
      if (BUILTIN_SCHEMAS.has(f.nspname) || f.lanname === 'internal' || f.prokind === 'a') continue;
      if (f.provolatile === 'v') volatile.add(shown);
      if (f.lanname === 'sql' || f.lanname === 'plpgsql') {
        const body = f.prosrc ?? '';
        const masked = maskSql(body, 'postgresql');
        if (f.lanname === 'plpgsql' && /\bEXECUTE\b/i.test(masked)) outside.add(`${shown} runs dynamic SQL (EXECUTE), which cannot be checked before it runs`);
        if (/\bCOPY\b[\s\S]*?\bTO\b/i.test(masked)) outside.add(`${shown} runs COPY … TO, which writes a file or runs a program on the server`);
        names.push(...calledNames(masked));
        sequenceArguments(body).forEach((s) => sequences.add(s));
      } else if (f.lanname !== 'c' || !/^(pg_|dblink)/.test(f.proname)) {
        outside.add(`${shown} is written in ${f.lanname}, which cannot be checked before it runs`);
      }
    }
  }
  return { outside: [...outside], sequences: [...sequences], volatile: [...volatile] };
}

/** Each named sequence's position in calls (last value over the increment), to report how far it advanced. */
export async function sequencePositions(client: Client, names: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of names) {
    const r = await client
      .query({
        text: `SELECT coalesce(pg_sequence_last_value(c.oid), s.seqstart - s.seqincrement)::float8 / s.seqincrement AS calls
                 FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid WHERE c.oid = to_regclass($1)`,
        values: [name],
      })
      .catch(() => undefined);
    const v = r?.rows[0]?.calls;
    if (typeof v === 'number') out.set(name, v);
  }
  return out;
}
