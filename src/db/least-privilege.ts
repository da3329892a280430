// What a measuring role needs, as the GRANTs to run: BufferLens reads counters, catalogs and buffer
// residency, and runs the statement inside a transaction it rolls back. A superuser (or ALL PRIVILEGES)
// is more than that, and nothing but BufferLens's own checks then stands between a statement and the data.
import { quoteMysqlName } from '../sql/quote';

export function leastPrivilegeGrants(engine: 'postgresql' | 'mysql', database: string | undefined): string {
  if (engine === 'postgresql') {
    return [
      '-- A PostgreSQL role that can measure with BufferLens and do nothing else.',
      "CREATE ROLE bufferlens_measure LOGIN PASSWORD 'choose-one';",
      "-- pg_stat_io, pg_stat_database and other sessions' activity:",
      'GRANT pg_read_all_stats TO bufferlens_measure;',
      '-- pg_buffercache (residency; its functions are granted to pg_monitor):',
      'GRANT pg_monitor TO bufferlens_measure;',
      '-- The tables the statements read (and, rolled back, write):',
      `GRANT SELECT ON ALL TABLES IN SCHEMA public TO bufferlens_measure;`,
      `-- GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO bufferlens_measure;  -- only to measure writes`,
      ...(database ? [`GRANT CONNECT ON DATABASE ${quotePg(database)} TO bufferlens_measure;`] : []),
    ].join('\n');
  }
  const db = database ? quoteMysqlName(database) : '`your_db`';
  return [
    '-- A MySQL/MariaDB user that can measure with BufferLens and do nothing else.',
    "CREATE USER 'bufferlens'@'%' IDENTIFIED BY 'choose-one';",
    "-- The process list (other sessions) and InnoDB's information_schema views (residency, metrics):",
    "GRANT PROCESS ON *.* TO 'bufferlens'@'%';",
    '-- Index statistics for the prediction:',
    "GRANT SELECT ON mysql.innodb_index_stats TO 'bufferlens'@'%';",
    '-- The tables the statements read (and, rolled back, write):',
    `GRANT SELECT ON ${db}.* TO 'bufferlens'@'%';`,
    `-- GRANT INSERT, UPDATE, DELETE ON ${db}.* TO 'bufferlens'@'%';  -- only to measure writes`,
  ].join('\n');
}

function quotePg(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
