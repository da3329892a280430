// The constant bounds a statement puts on one table's column (`t.id BETWEEN 5 AND 9`, `a.id > 100`,
// `id = 7`), read from its text: the plan says which index a range used and how many rows it read, but
// not from where. A guess the predictor makes only where the plan agrees (a range on that column's
// index); it never decides what runs. Pure.
import { tableReferences } from '../../sql/aliases';

export interface KeyBounds {
  /** The first key the range can hold (inclusive), if bounded below. */
  from?: number;
  /** The last key the range can hold (inclusive), if bounded above. */
  to?: number;
}

/** The names a table goes by in the statement (itself and its aliases), and how many tables it references. */
function namesOf(sql: string, table: string): { names: Set<string>; tables: number } {
  const refs = tableReferences(sql);
  const names = new Set([
    table.toLowerCase(),
    ...refs.filter((r) => r.table.toLowerCase() === table.toLowerCase() && r.alias).map((r) => r.alias!.toLowerCase()),
  ]);
  return { names, tables: refs.length };
}

/**
 * The bounds on `column` of `table` that the statement compares with integer constants, intersected;
 * undefined where it compares none. A reference without a qualifier counts only in a one-table statement.
 */
export function constantBounds(statement: string, table: string, column: string): KeyBounds | undefined {
  // A disjunction's bounds do not intersect: no single range to place.
  if (/\bor\b|\|\|/i.test(statement)) return undefined;
  const { names, tables } = namesOf(statement, table);
  // An UPDATE's assignments are no conditions.
  const sql = statement.replace(/\bset\b[\s\S]*?(?=\bwhere\b|$)/i, ' ');
  const col = column.toLowerCase();
  const operand = String.raw`(?:(\`[^\`]+\`|\w+)\s*\.\s*)?(\`[^\`]+\`|\w+)`;
  const num = String.raw`(-?\d+)`;
  const ours = (qualifier: string | undefined, name: string) =>
    name.replace(/`/g, '').toLowerCase() === col && (qualifier ? names.has(qualifier.replace(/`/g, '').toLowerCase()) : tables <= 1);
  const out: KeyBounds = {};
  let found = false;
  const tighten = (from?: number, to?: number) => {
    found = true;
    if (from !== undefined) out.from = Math.max(out.from ?? -Infinity, from);
    if (to !== undefined) out.to = Math.min(out.to ?? Infinity, to);
  };
  for (const m of sql.matchAll(new RegExp(String.raw`${operand}\s+between\s+${num}\s+and\s+${num}`, 'gi'))) {
    if (ours(m[1], m[2])) tighten(Number(m[3]), Number(m[4]));
  }
  for (const m of sql.matchAll(new RegExp(String.raw`${operand}\s*(>=|<=|<>|!=|=|>|<)\s*${num}\b`, 'gi'))) {
    if (!ours(m[1], m[2])) continue;
    const v = Number(m[4]);
    if (m[3] === '>=') tighten(v);
    else if (m[3] === '>') tighten(v + 1);
    else if (m[3] === '<=') tighten(undefined, v);
    else if (m[3] === '<') tighten(undefined, v - 1);
    else if (m[3] === '=') tighten(v, v);
  }
  return found && (out.from === undefined || out.to === undefined || out.from <= out.to) ? out : undefined;
}

/**
 * The distinct constants of `column IN (…)` on `table` (numbers or quoted strings), ascending where all are
 * numbers; undefined where the statement has no such list. Each is a range of its own, searched from the root.
 */
export function inListValues(statement: string, table: string, column: string): Array<number | string> | undefined {
  const { names, tables } = namesOf(statement, table);
  const operand = String.raw`(?:(\`[^\`]+\`|\w+)\s*\.\s*)?(\`[^\`]+\`|\w+)`;
  const constant = /^(?:-?\d+(?:\.\d+)?|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*")$/;
  for (const m of statement.matchAll(new RegExp(String.raw`(\bnot\s+)?${operand}\s+in\s*\(([^()]*)\)`, 'gi'))) {
    const [, not, qualifier, name, list] = m;
    if (not || name.replace(/`/g, '').toLowerCase() !== column.toLowerCase()) continue;
    if (qualifier ? !names.has(qualifier.replace(/`/g, '').toLowerCase()) : tables > 1) continue;
    const items = (list.match(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|[^,]+/g) ?? []).map((x) => x.trim()).filter((x) => x !== '');
    if (items.length === 0 || !items.every((x) => constant.test(x))) continue;
    // A quoted number compares as the number with an integer column: '9' is 9.
    const values = [...new Set(items.map((x) => (/^['"]?-?\d+(?:\.\d+)?['"]?$/.test(x) ? Number(x.replace(/['"]/g, '')) : x)))];
    return values.every((v) => typeof v === 'number') ? (values as number[]).sort((a, b) => a - b) : values;
  }
  return undefined;
}

/**
 * The bounds `column` of `table` takes from another table's column it is joined to by equality
 * (`o.cust_id = c.id AND c.id BETWEEN 5 AND 9`): the optimizer propagates the equality and estimates the
 * range on both tables' keys. Undefined where no such column has constant bounds.
 */
export function boundsThroughEquality(statement: string, table: string, column: string): KeyBounds | undefined {
  const refs = tableReferences(statement);
  const { names } = namesOf(statement, table);
  const side = String.raw`(\`[^\`]+\`|\w+)\s*\.\s*(\`[^\`]+\`|\w+)`;
  const bare = (s: string) => s.replace(/`/g, '').toLowerCase();
  const tableOf = (qualifier: string) =>
    refs.find((r) => bare(r.alias ?? '') === qualifier || (!r.alias && bare(r.table) === qualifier) || bare(r.table) === qualifier)?.table;
  for (const m of statement.matchAll(new RegExp(String.raw`${side}\s*=\s*${side}`, 'g'))) {
    const [a, b] = [
      [bare(m[1]), bare(m[2])],
      [bare(m[3]), bare(m[4])],
    ];
    for (const [ours, other] of [
      [a, b],
      [b, a],
    ]) {
      if (!names.has(ours[0]) || ours[1] !== column.toLowerCase() || names.has(other[0])) continue;
      const otherTable = tableOf(other[0]);
      const bounds = otherTable ? constantBounds(statement, otherTable, other[1]) : undefined;
      if (bounds) return bounds;
    }
  }
  return undefined;
}
