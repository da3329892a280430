// The one entry point for measuring, whatever the engine.
import type { ConnectionTarget } from '../db/connection-url';
import type { Report } from '../shared/report';
import type { MeasureOptions } from './options';
import { measurePostgres } from './postgres/measure-postgres';
import { measureInnodb } from './innodb/measure-innodb';

export async function measure(target: ConnectionTarget, options: MeasureOptions): Promise<Report> {
  switch (target.engine) {
    case 'postgresql':
      return measurePostgres(target, options);
    case 'mysql':
      return measureInnodb(target, options);
  }
}
