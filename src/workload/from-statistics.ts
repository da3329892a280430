// A workload from what the server already counts: the top statements of pg_stat_statements (PostgreSQL)
// or performance_schema's statement digests (MySQL, MariaDB), weighted by their calls. The servers keep
// a statement's shape, not its parameters: each placeholder compared with a numeric column becomes a
// `\set` drawing uniformly over that column's range (read from its index's ends), which the file says so
// the user can change it. A value an UPDATE writes, or an INSERT puts in a column no index orders, decides
// no page and becomes a constant, said so. Any other placeholder leaves its statement out, with the reason.
import type { ConnectionTarget } from '../db/connection-url';
import { ENGINES } from '../measure/engines';
import { StatisticsUnavailable, type CountedStatement, type RangeOf } from '../measure/statement-statistics';
import { WorkloadInputError } from './load-scripts';

export type { CountedStatement };

const PLACEHOLDER = /\$(\d+)|\?/g;
const DML = /^\s*(select|insert|update|delete|with|replace)\b/i;

/** The table a statement reads or writes first: FROM, UPDATE, INTO or JOIN's first name. */
function firstTable(text: string): string | undefined {
  const m = /\b(?:from|update|into)\s+(?:only\s+)?`?"?([A-Za-z_][A-Za-z0-9_$]*)/i.exec(text);
  return m?.[1];
}

/** Where an UPDATE's SET clause is: a placeholder there is a value written, which decides no page. */
function setClause(text: string): [number, number] | undefined {
  if (!/^\s*update\b/i.test(text)) return undefined;
  const set = /\bset\b/i.exec(text);
  if (!set) return undefined;
  const where = /\bwhere\b/i.exec(text.slice(set.index));
  return [set.index, where ? set.index + where.index : text.length];
}

/** Splits a comma list at depth 0 of parentheses, with each item's start offset. */
function commaItems(text: string, offset: number): Array<{ at: number; text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (i === text.length || (ch === ',' && depth === 0)) {
      out.push({ at: offset + start, text: text.slice(start, i) });
      start = i + 1;
    }
  }
  return out;
}

/** INSERT … (a, b) VALUES (…, …): the column each value position goes to, by the offset of its value. */
function insertColumns(text: string): Map<number, string> {
  const out = new Map<number, string>();
  const m = /^\s*(?:insert|replace)\s+(?:ignore\s+)?into\s+[^(]+\(([^)]*)\)\s*values\s*\(/i.exec(text);
  if (!m) return out;
  const columns = commaItems(m[1], 0).map((c) => c.text.trim().replace(/[`"]/g, ''));
  const start = m.index + m[0].length;
  let depth = 1;
  let end = start;
  while (end < text.length && depth > 0) {
    if (text[end] === '(') depth++;
    else if (text[end] === ')') depth--;
    end++;
  }
  commaItems(text.slice(start, end - 1), start).forEach((v, i) => {
    if (columns[i]) out.set(v.at + (v.text.length - v.text.trimStart().length), columns[i]);
  });
  return out;
}

/** Whether a statement reads a table of the database: monitoring calls (SELECT 1, pg_stat_statements_reset()) are no part of a workload. */
function readsTable(text: string): boolean {
  const table = firstTable(text);
  return table !== undefined && !/^(pg_|information_schema$|performance_schema$)/i.test(table);
}

/** Rewrites one counted statement as a weighted script, or says why it cannot be. */
export async function generalise(s: CountedStatement, index: number, rangeOf: RangeOf): Promise<{ script: string } | { skipped: string }> {
  const table = firstTable(s.text);
  if (!table || !readsTable(s.text)) return { skipped: 'it reads no table of the database' };
  const sets: string[] = [];
  let n = 0;
  let failure: string | undefined;
  const placeholders: Array<{ at: number; length: number; name: string }> = [];
  const set = setClause(s.text);
  const inserted = insertColumns(s.text);
  const written = new Set<string>();
  const substitute = (name: string, at: number, length: number, draw: string) => {
    if (!sets.some((x) => x.startsWith(`\\set ${name} `))) sets.push(`\\set ${name} ${draw}`);
    placeholders.push({ at, length, name });
  };
  for (const m of s.text.matchAll(PLACEHOLDER)) {
    n++;
    const before = s.text.slice(0, m.index);
    const compared = /([A-Za-z_][A-Za-z0-9_]*)"?`?\s*(?:=|<=|>=|<|>|between|in\s*\()\s*(?:\$\d+\s+and\s+|\?\s+and\s+)?$/i.exec(before)?.[1];
    const name = `s${index}_p${m[1] ?? n}`;
    const insertedInto = inserted.get(m.index!);
    const inSet = set !== undefined && m.index! > set[0] && m.index! < set[1];
    if (inSet) {
      // A value an UPDATE writes decides no page: any constant does.
      substitute(name, m.index!, m[0].length, '1');
      written.add(name);
      continue;
    }
    const col = compared ?? insertedInto;
    if (!table || !col) {
      failure ??= `placeholder ${m[0]} is not compared with a column`;
      continue;
    }
    const range = await rangeOf(table, col);
    if (!range && insertedInto && !compared) {
      // A value inserted into a column with no index to place it decides no page either.
      substitute(name, m.index!, m[0].length, '1');
      written.add(name);
      continue;
    }
    if (!range) {
      failure ??= `${table}.${col} is not a numeric column with an index to read its range from`;
      continue;
    }
    substitute(name, m.index!, m[0].length, `random(${range[0]}, ${range[1]})`);
  }
  if (failure) return { skipped: failure };
  let text = s.text;
  for (const p of [...placeholders].reverse()) text = text.slice(0, p.at) + `:${p.name}` + text.slice(p.at + p.length);
  const note = written.size ? [`-- ${[...written].map((w) => `:${w}`).join(', ')}: a value written, which decides no page (set to 1)`] : [];
  return { script: [`-- bufferlens: weight ${Math.max(1, Math.round(s.calls))}`, ...note, ...sets, `${text.trim().replace(/;?\s*$/, '')};`].join('\n') };
}

/**
 * The workload file of the server's `top` statements by calls. With `choose` (the editor's picker), the user
 * keeps some of them; undefined from it cancels, and so does this.
 */
export async function workloadFromStatistics(
  target: ConnectionTarget,
  top: number,
  choose?: (counted: CountedStatement[]) => Promise<CountedStatement[] | undefined>,
): Promise<string | undefined> {
  const stats = await ENGINES[target.engine].statementStatistics(target).catch((err: unknown) => {
    throw err instanceof StatisticsUnavailable ? new WorkloadInputError(err.message) : err;
  });
  const { source, rangeOf } = stats;
  try {
    const counted = stats.statements.filter((s) => DML.test(s.text) && readsTable(s.text)).slice(0, top);
    if (counted.length === 0) throw new WorkloadInputError(`${source} has no SELECT, INSERT, UPDATE or DELETE statements for this database yet`);
    const chosen = choose ? await choose(counted) : counted;
    if (!chosen || chosen.length === 0) return undefined;
    const parts: string[] = [];
    const skipped: string[] = [];
    for (const [i, s] of chosen.entries()) {
      const g = await generalise(s, i + 1, rangeOf);
      if ('script' in g) parts.push(g.script);
      else skipped.push(`--   left out (${g.skipped}): ${s.text.replace(/\s+/g, ' ').slice(0, 100)}`);
    }
    if (parts.length === 0) throw new WorkloadInputError(`none of the ${chosen.length} statements could be turned into a workload:\n${skipped.join('\n')}`);
    return [
      `-- A BufferLens workload from ${source}: ` +
        (choose ? `${chosen.length} of its top ${counted.length}` : `its top ${counted.length}`) +
        ' statements by calls, weighted by them.',
      '-- The server keeps no parameters: each is drawn uniformly over its column\u2019s range. Change a \\set line',
      '-- (random_zipfian, random_exponential, …) where the real keys are skewed.',
      ...skipped,
      '',
      parts.join('\n\n'),
      '',
    ].join('\n');
  } finally {
    await stats.close();
  }
}
