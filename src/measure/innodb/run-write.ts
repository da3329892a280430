// What a data-changing statement wrote in one run, from the counters' deltas, as the InnoDB prediction
// replays it: an INSERT's rows (with their rollback), an UPDATE's or DELETE's rows, table and assigned columns.
import type { InnodbRunInput } from '../../predict/innodb/facts';
import { writtenTables } from '../../sql/classify/classify';
import { updateSetClause } from '../../sql/classify/mysql-update-columns';
import { maskSql } from '../../sql/mask';

/**
 * A multi-table UPDATE (`UPDATE a JOIN b … SET`, `UPDATE a, b SET`) or DELETE (`… USING`): the handler's
 * row count covers every table it changed, so no one table's rows are known.
 */
function writesSeveralTables(statement: string): boolean {
  const h = maskSql(statement, 'mysql').replace(/\s+/g, ' ');
  const update = /^\s*UPDATE\s(.*?)\sSET\s/i.exec(h);
  if (update) return /\bJOIN\b|,/i.test(update[1]);
  return /^\s*DELETE\s.*\bUSING\b/i.test(h);
}

export function writeOfRun(statement: string, verb: string, delta: Record<string, number>, rolledBack: boolean): Pick<InnodbRunInput, 'insert' | 'otherWrite'> {
  const written = /^(INSERT|REPLACE|UPDATE|DELETE)$/.exec(verb)?.[1];
  const tables = writtenTables(statement, 'mysql');
  const table = tables[0]?.split('.').pop();
  if (!written || !table) return {};
  if (written === 'UPDATE' || written === 'DELETE') {
    // MySQL counts InnoDB's changed rows; MariaDB 10.6+ only the handler's.
    const counter = written === 'UPDATE' ? ['Innodb_rows_updated', 'Handler_update'] : ['Innodb_rows_deleted', 'Handler_delete'];
    const rowsFrom = counter.find((k) => delta[k] !== undefined);
    // A multi-table write changes rows of several tables: its changes stay named as left out.
    const single = tables.length === 1 && !writesSeveralTables(statement);
    const set = written === 'UPDATE' ? updateSetClause(statement) : null;
    return {
      otherWrite: {
        statement: written,
        table,
        ...(rowsFrom && single ? { rows: Math.max(0, delta[rowsFrom]), rowsFrom } : {}),
        ...(set ? { setColumns: set.columns, selfRelative: set.selfRelative } : {}),
        rolledBack,
      },
    };
  }
  const rowsFrom = delta.Innodb_rows_inserted !== undefined ? 'Innodb_rows_inserted' : 'Handler_write';
  return { insert: { table, rows: Math.max(0, delta[rowsFrom] ?? 0), rowsFrom, rolledBack } };
}
