// Table aliases of a MySQL/MariaDB statement (FROM t1 a JOIN t2 AS b …), read from its text: the
// servers' JSON plans name a table by its alias, and the catalogs know only the table. One linear pass over
// the statement's tokens, literals and comments masked first. Derived tables ((SELECT …) AS d) are not
// tables and get no entry.
import { maskSql } from './mask';

/** Words that can follow a table reference and are not an alias. */
const NOT_ALIAS = new Set(
  (
    'WHERE ON USING JOIN INNER LEFT RIGHT CROSS NATURAL STRAIGHT_JOIN OUTER FULL GROUP ORDER LIMIT HAVING SET FORCE USE IGNORE PARTITION ' +
    'UNION EXCEPT INTERSECT WINDOW FOR LOCK INTO VALUES VALUE SELECT AND OR AS RETURNING PROCEDURE OFFSET'
  ).split(' '),
);

/** Keywords after which a table reference (or a list of them) follows. */
const TABLE_LIST = new Set(['FROM', 'JOIN', 'STRAIGHT_JOIN', 'UPDATE']);

interface Token {
  text: string;
  /** An identifier (bare or `quoted`) rather than punctuation. */
  ident: boolean;
  quoted: boolean;
}

/** The statement's tokens, one at a time: a 10 MB IN list must not become millions of objects at once. */
function* tokens(masked: string): Generator<Token> {
  // A number is one token (not an identifier), so a long list of them costs one match each.
  const re = /`((?:[^`]|``)*)`|([A-Za-z_$][\w$]*)|[0-9][\w.]*|(\S)/g;
  for (const m of masked.matchAll(re)) {
    if (m[1] !== undefined) yield { text: m[1].replace(/``/g, '`'), ident: true, quoted: true };
    else if (m[2] !== undefined) yield { text: m[2], ident: true, quoted: false };
    else yield { text: m[3] ?? m[0], ident: false, quoted: false };
  }
}

/** A window over the token stream: the current token and the few after it that a table reference needs. */
function lookahead(stream: Generator<Token>): { at(k: number): Token | undefined; next(): void } {
  const window: Token[] = [];
  const at = (k: number) => {
    while (window.length <= k) {
      const n = stream.next();
      if (n.done) return undefined;
      window.push(n.value);
    }
    return window[k];
  };
  return { at, next: () => void (at(0) && window.shift()) };
}

/** Every table reference of the statement in order: the table (the last part of a qualified name) and its alias, if any. */
export function tableReferences(statement: string): Array<{ table: string; alias?: string }> {
  const t = lookahead(tokens(maskSql(statement, 'mysql')));
  const refs: Array<{ table: string; alias?: string }> = [];
  let inList = false;
  for (let cur = t.at(0); cur; t.next(), cur = t.at(0)) {
    const word = cur.ident && !cur.quoted ? cur.text.toUpperCase() : '';
    if (TABLE_LIST.has(word)) inList = true;
    else if (word && NOT_ALIAS.has(word) && word !== 'AS') inList = word === 'JOIN' || word === 'STRAIGHT_JOIN';
    const startsRef = inList && (TABLE_LIST.has(word) || (cur.text === ',' && !cur.ident));
    if (!startsRef) continue;
    // A table reference: name [. name] [[AS] alias]
    let j = 1;
    const first = t.at(j);
    if (!first?.ident || (!first.quoted && NOT_ALIAS.has(first.text.toUpperCase()))) continue;
    let table = first.text;
    const qualified = t.at(j + 2);
    if (t.at(j + 1)?.text === '.' && qualified?.ident) {
      table = qualified.text;
      j += 2;
    }
    j++;
    const as = t.at(j);
    if (as?.ident && !as.quoted && as.text.toUpperCase() === 'AS') j++;
    const alias = t.at(j);
    refs.push(alias?.ident && (alias.quoted || !NOT_ALIAS.has(alias.text.toUpperCase())) ? { table, alias: alias.text } : { table });
  }
  return refs;
}

/** alias → table name (the last part of a qualified name), for every aliased table of the statement. */
export function tableAliases(statement: string): Map<string, string> {
  return new Map(tableReferences(statement).flatMap((r) => (r.alias ? [[r.alias, r.table] as [string, string]] : [])));
}
