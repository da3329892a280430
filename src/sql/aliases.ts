// Table aliases of a MySQL/MariaDB statement (FROM t1 a JOIN t2 AS b …), read from its text: the
// servers' JSON plans name a table by its alias, and the catalogs know only the table. One linear pass over
// the statement's tokens, literals and comments masked first. Derived tables ((SELECT …) AS d) are not
// tables and get no entry.
import { maskSql } from './mask';

/** Words that can follow a table reference and are not an alias. */
const NOT_ALIAS = new Set(
  'WHERE ON USING JOIN INNER LEFT RIGHT CROSS NATURAL STRAIGHT_JOIN OUTER FULL GROUP ORDER LIMIT HAVING SET FORCE USE IGNORE PARTITION UNION EXCEPT INTERSECT WINDOW FOR LOCK INTO VALUES VALUE SELECT AND OR AS RETURNING PROCEDURE OFFSET'.split(
    ' ',
  ),
);

/** Keywords after which a table reference (or a list of them) follows. */
const TABLE_LIST = new Set(['FROM', 'JOIN', 'STRAIGHT_JOIN', 'UPDATE']);

interface Token {
  text: string;
  /** An identifier (bare or `quoted`) rather than punctuation. */
  ident: boolean;
  quoted: boolean;
}

function tokens(masked: string): Token[] {
  const out: Token[] = [];
  const re = /`((?:[^`]|``)*)`|([A-Za-z_$][\w$]*)|(\S)/g;
  for (const m of masked.matchAll(re)) {
    if (m[1] !== undefined) out.push({ text: m[1].replace(/``/g, '`'), ident: true, quoted: true });
    else if (m[2] !== undefined) out.push({ text: m[2], ident: true, quoted: false });
    else out.push({ text: m[3], ident: false, quoted: false });
  }
  return out;
}

/** Every table reference of the statement in order: the table (the last part of a qualified name) and its alias, if any. */
export function tableReferences(statement: string): Array<{ table: string; alias?: string }> {
  const t = tokens(maskSql(statement, 'mysql'));
  const refs: Array<{ table: string; alias?: string }> = [];
  let inList = false;
  for (let i = 0; i < t.length; i++) {
    const word = t[i].ident && !t[i].quoted ? t[i].text.toUpperCase() : '';
    if (TABLE_LIST.has(word)) inList = true;
    else if (word && NOT_ALIAS.has(word) && word !== 'AS') inList = word === 'JOIN' || word === 'STRAIGHT_JOIN';
    const startsRef = inList && (TABLE_LIST.has(word) || (t[i].text === ',' && !t[i].ident));
    if (!startsRef) continue;
    // A table reference: name [. name] [[AS] alias]
    let j = i + 1;
    if (!t[j]?.ident || (!t[j].quoted && NOT_ALIAS.has(t[j].text.toUpperCase()))) continue;
    let table = t[j].text;
    if (t[j + 1]?.text === '.' && t[j + 2]?.ident) {
      table = t[j + 2].text;
      j += 2;
    }
    j++;
    if (t[j]?.ident && !t[j].quoted && t[j].text.toUpperCase() === 'AS') j++;
    const alias = t[j];
    refs.push(alias?.ident && (alias.quoted || !NOT_ALIAS.has(alias.text.toUpperCase())) ? { table, alias: alias.text } : { table });
  }
  return refs;
}

/** alias → table name (the last part of a qualified name), for every aliased table of the statement. */
export function tableAliases(statement: string): Map<string, string> {
  return new Map(tableReferences(statement).flatMap((r) => (r.alias ? [[r.alias, r.table] as [string, string]] : [])));
}
