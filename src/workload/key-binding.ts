// Which of a statement's parameters a plan's index condition uses: read from the script's own SQL, where
// the variable still has its name (`WHERE aid = :aid`), for the index's first column. The plan says which
// index and which column; the text says which variable feeds it, since the plan only shows the value.
import type { KeyRef } from './shapes';

export type KeyCondition = { kind: 'equal'; key: KeyRef } | { kind: 'range'; from?: KeyRef; to?: KeyRef } | { kind: 'none' };

// A variable, with a constant added or taken (sysbench's ranges as pgbench writes them: `:r + 99`), or a constant.
const operand = String.raw`(?::([A-Za-z_][A-Za-z0-9_]*)(?:\s*([+-])\s*(\d+)(?![\d.]))?|(-?\d+(?:\.\d+)?))`;

/** The operand's four groups, from `at`: variable, sign, amount, constant. */
function ref(m: RegExpMatchArray, at: number): KeyRef {
  const [variable, sign, amount, constant] = m.slice(at, at + 4);
  if (variable === undefined) return { constant: Number(constant) };
  return amount === undefined ? { variable } : { variable, offset: (sign === '-' ? -1 : 1) * Number(amount) };
}

/** The condition the statement puts on `column` (qualified or not), from its template text. */
export function keyCondition(template: string, column: string): KeyCondition {
  const col = String.raw`(?<![A-Za-z0-9_])(?:[A-Za-z_][A-Za-z0-9_]*\.)?"?${column.replace(/[^A-Za-z0-9_]/g, '')}"?`;
  const between = new RegExp(String.raw`${col}\s+between\s+${operand}\s+and\s+${operand}`, 'i').exec(template);
  if (between) return { kind: 'range', from: ref(between, 1), to: ref(between, 5) };
  const inList = new RegExp(String.raw`${col}\s+in\s*\(\s*${operand}\s*\)`, 'i').exec(template);
  if (inList) return { kind: 'equal', key: ref(inList, 1) };
  let from: KeyRef | undefined;
  let to: KeyRef | undefined;
  const left = new RegExp(String.raw`${col}\s*(=|>=|>|<=|<)\s*${operand}(?![A-Za-z0-9_.])`, 'gi');
  const right = new RegExp(String.raw`${operand}\s*(=|>=|>|<=|<)\s*${col}(?![A-Za-z0-9_])`, 'gi');
  for (const m of template.matchAll(left)) {
    const r = ref(m, 2);
    if (m[1] === '=') return { kind: 'equal', key: r };
    if (m[1].startsWith('>')) from = adjust(r, m[1] === '>' ? 1 : 0);
    else to = adjust(r, m[1] === '<' ? -1 : 0);
  }
  for (const m of template.matchAll(right)) {
    const r = ref(m, 1);
    const op = m[5];
    if (op === '=') return { kind: 'equal', key: r };
    // `:a < col` bounds col from below.
    if (op.startsWith('<')) from = adjust(r, op === '<' ? 1 : 0);
    else to = adjust(r, op === '>' ? -1 : 0);
  }
  if (from || to) return { kind: 'range', from, to };
  return { kind: 'none' };
}

/** A strict bound moved by one on integer keys; a variable keeps its value (the shape reads it). */
function adjust(r: KeyRef, by: number): KeyRef {
  return 'constant' in r ? { constant: r.constant + by } : r;
}
