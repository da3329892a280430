// JSON the server writes (EXPLAIN/ANALYZE FORMAT=JSON). MariaDB writes table names into it unescaped, so a
// table named with a quote or a backslash makes the document invalid; the names the statement uses are
// known, so they are escaped and the document read again.
import { maskSql } from '../../sql/mask';
import { namesIn } from './side-effects';

export function parseServerJson(text: string, statement: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    let repaired = text;
    for (const n of namesIn(maskSql(statement, 'mysql')).names) {
      for (const name of [n.name, n.schema].filter((x): x is string => x !== undefined && /["\\]/.test(x))) {
        repaired = repaired.split(`"${name}"`).join(JSON.stringify(name));
      }
    }
    if (repaired === text) throw err;
    return JSON.parse(repaired);
  }
}
