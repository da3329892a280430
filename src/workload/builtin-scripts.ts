// pgbench's built-in scripts (`pgbench -b NAME`), in the text pgbench documents for them. They run on the
// schema `pgbench -i` creates; `:scale` is the number of rows in pgbench_branches.
import { parseScript, type WorkloadScript } from './script';

// The parameters and the account update that open both read-write scripts.
const DRAWS_AND_ACCOUNT = `\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`;

const HISTORY_AND_END = `INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`;

const TPCB_LIKE = `${DRAWS_AND_ACCOUNT}UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
${HISTORY_AND_END}`;

const SIMPLE_UPDATE = `${DRAWS_AND_ACCOUNT}${HISTORY_AND_END}`;

const SELECT_ONLY = `\\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`;

export const BUILTIN_SCRIPTS: Record<string, string> = {
  'tpcb-like': TPCB_LIKE,
  'simple-update': SIMPLE_UPDATE,
  'select-only': SELECT_ONLY,
};

/** A built-in by name or unambiguous prefix (pgbench accepts `-b select` for select-only). */
export function builtinScript(spec: string, weight: number): WorkloadScript[] | undefined {
  const names = Object.keys(BUILTIN_SCRIPTS).filter((n) => n === spec || n.startsWith(spec));
  if (names.length !== 1) return undefined;
  return parseScript(BUILTIN_SCRIPTS[names[0]], `builtin:${names[0]}`, weight);
}
