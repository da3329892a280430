// The engine registry: everything that differs per engine, in one entry each. Adding an engine is one
// session, one predictor and one entry here; the measurement lifecycle, the CLI and the editor look
// engines up instead of switching on them.
import type { ConnectionTarget } from '../db/connection-url';
import { postgresVersion } from '../db/postgres';
import { mysqlVersion } from '../db/mysql';
import { leastPrivilegeGrants } from '../db/least-privilege';
import type { Dialect } from '../shared/dialect';
import { splitMysql } from '../sql/split-mysql';
import { splitPostgres } from '../sql/split-postgres';
import type { SqlStatement } from '../sql/statement';
import { predictInnodb } from '../predict/innodb/predict';
import { predictPostgres } from '../predict/postgres/predict';
import type { PlanNode, Report } from '../shared/report';
import type { EngineDefinition } from './engine-session';
import type { MeasureOptions } from './options';
import { runMeasurement } from './run-measurement';
import { checkPostgresStatement } from '../sql/classify/postgres-kind';
import { openPostgresSession, type PgFacts } from './postgres/postgres-session';
import { withObservations, type PgPostRunObservations } from '../predict/postgres/facts';
import { checkInnodbStatement } from '../sql/classify/mysql-kind';
import { openInnodbSession, type InnodbFacts } from './innodb/innodb-session';
import type { InnodbPostRunObservations } from './innodb/post-run';
import type { InnodbRunInput } from '../predict/innodb/facts';
import type { StatementStatistics } from './statement-statistics';
import type { GatePolicy, GateVerdict } from './gate';
import { postgresReach } from './postgres/reach';
import { innodbReach } from './innodb/reach';
import { postgresStatementStatistics } from './postgres/statement-statistics';
import { innodbStatementStatistics } from './innodb/statement-statistics';

export type EngineId = ConnectionTarget['engine'];

/** What callers outside the measurement core need of an engine, without its type parameters. */
export interface Engine {
  id: EngineId;
  /** How the engine's client splits a file into statements. */
  dialect: Dialect;
  label: string;
  defaultPort: number;
  /** user@database offered when a connection is added. */
  defaultLogin: string;
  split(text: string): SqlStatement[];
  /** What the server says it is, for Test Connection. */
  serverVersion(target: ConnectionTarget): Promise<string>;
  /** The GRANTs of a least-privilege measuring role, as SQL to run. */
  leastPrivilegeGrants(database: string | undefined): string;
  measure(target: ConnectionTarget, options: MeasureOptions): Promise<Report>;
  /** The statements the server counts, for a workload made from them. */
  statementStatistics(target: ConnectionTarget): Promise<StatementStatistics>;
  /** The gate's verdict on each statement, from what it reaches, judged before any of them runs (a workload's). */
  reach(target: ConnectionTarget, statements: string[], policy: GatePolicy): Promise<GateVerdict[]>;
}

function engine<F, R, O>(def: EngineDefinition<F, R, O>, about: Omit<Engine, 'id' | 'dialect' | 'split' | 'measure' | 'leastPrivilegeGrants'>): Engine {
  return {
    id: def.id,
    dialect: def.dialect,
    split: def.split,
    measure: (target, options) => runMeasurement(def, target, options),
    leastPrivilegeGrants: (database) => leastPrivilegeGrants(def.id, database),
    ...about,
  };
}

const postgresql: EngineDefinition<PgFacts, PlanNode, PgPostRunObservations> = {
  id: 'postgresql',
  dialect: 'postgresql',
  split: splitPostgres,
  check: checkPostgresStatement,
  open: openPostgresSession,
  complete: withObservations,
  predict: (facts, runs, options) => predictPostgres({ ...facts, runs }, options),
};

const innodb: EngineDefinition<InnodbFacts, InnodbRunInput, InnodbPostRunObservations> = {
  id: 'mysql',
  dialect: 'mysql',
  split: splitMysql,
  check: checkInnodbStatement,
  open: openInnodbSession,
  // The observations go into each run's input (predictInput), not the facts.
  complete: (facts) => facts,
  predict: (facts, runs, options) => predictInnodb({ ...facts, runs }, options),
};

export const ENGINES: Readonly<Record<EngineId, Engine>> = {
  postgresql: engine(postgresql, {
    label: 'PostgreSQL',
    defaultPort: 5432,
    defaultLogin: 'postgres@postgres',
    serverVersion: postgresVersion,
    statementStatistics: postgresStatementStatistics,
    reach: postgresReach,
  }),
  mysql: engine(innodb, {
    label: 'MySQL or MariaDB',
    defaultPort: 3306,
    defaultLogin: 'root@',
    serverVersion: mysqlVersion,
    statementStatistics: innodbStatementStatistics,
    reach: innodbReach,
  }),
};

/** The engine whose client splits files in this dialect. */
export function engineForDialect(dialect: Dialect): Engine {
  return Object.values(ENGINES).find((e) => e.dialect === dialect)!;
}
