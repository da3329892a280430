// The one entry point for measuring, whatever the engine.
import type { ConnectionTarget } from '../db/connection-url';
import type { Report } from '../shared/report';
import { MeasureError } from './errors';
import type { MeasureOptions } from './options';
import { measurePostgres } from './postgres/measure-postgres';

export async function measure(target: ConnectionTarget, options: MeasureOptions): Promise<Report> {
  switch (target.engine) {
    case 'postgresql':
      return measurePostgres(target, options);
    case 'mysql':
      throw new MeasureError('measuring on MySQL and MariaDB is not available in this version yet', 'unsupported');
  }
}
