// Private, throw-away MariaDB (or MySQL) servers from the machine's installed `mariadbd`/`mysqld`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { giveTo, ownedCommand, serverOwner, type OwnerIds } from './process-owner';
import { track, untrack, type Stoppable } from './registry';
import { type ServerProcess, logTail, startOnPort } from './server-process';

export interface InnodbServerBinaries {
  product: 'mariadb' | 'mysql';
  server: string;
  /** The data-directory initialiser: mariadb-install-db, or mysqld itself with --initialize-insecure. */
  installDb: string;
  version: string;
}

const CANDIDATES: Array<Omit<InnodbServerBinaries, 'version'>> = [
  { product: 'mariadb', server: '/usr/sbin/mariadbd', installDb: '/usr/bin/mariadb-install-db' },
  { product: 'mysql', server: '/usr/sbin/mysqld', installDb: '/usr/sbin/mysqld' },
];

/** Installed InnoDB servers. Debian's mariadb-server also installs /usr/sbin/mysqld as a link to mariadbd. */
export function findInnodbServers(): InnodbServerBinaries[] {
  const found: InnodbServerBinaries[] = [];
  for (const c of CANDIDATES) {
    if (!existsSync(c.server) || !existsSync(c.installDb)) continue;
    const out = execFileSync(c.server, ['--version'], { encoding: 'utf8' });
    const product = /mariadb/i.test(out) ? 'mariadb' : 'mysql';
    if (product !== c.product) continue; // a compatibility link to another product
    const m = /Ver\s+(\S+)/.exec(out);
    found.push({ ...c, version: m ? m[1] : out.trim() });
  }
  return found;
}

export interface LocalInnodbOptions {
  binaries: InnodbServerBinaries;
  /** Server options as `--name=value`, e.g. { 'innodb-buffer-pool-size': '128M' }. */
  settings?: Record<string, string | number | boolean>;
}

function optionArgs(settings: Record<string, string | number | boolean>): string[] {
  return Object.entries(settings).map(([k, v]) => `--${k}=${typeof v === 'boolean' ? (v ? 'ON' : 'OFF') : v}`);
}

// A cold pool on restart needs the dump/load of the buffer pool off; tests choose the rest.
const BASE_SETTINGS = {
  'innodb-buffer-pool-load-at-startup': false,
  'innodb-buffer-pool-dump-at-shutdown': false,
  'skip-name-resolve': true,
  'innodb-flush-log-at-trx-commit': 2,
};

export class LocalInnodbServer implements Stoppable {
  readonly dir: string;
  private readonly dataDir: string;
  private readonly owner: OwnerIds;
  private proc: ServerProcess | undefined;
  port = 0;

  private constructor(
    readonly binaries: InnodbServerBinaries,
    private settings: Record<string, string | number | boolean>,
  ) {
    this.owner = serverOwner('mysql');
    this.dir = mkdtempSync(join(tmpdir(), `bufferlens-${binaries.product}-`));
    this.dataDir = join(this.dir, 'data');
    // Its own directory for temporary tables: servers sharing the system's /tmp were seen to lose an on-disk
    // temporary table's file ("Could not remove temporary table … error: 2") while others ran beside them.
    mkdirSync(this.tmpDir);
    giveTo(this.owner, this.dir, this.tmpDir);
  }

  static async start(options: LocalInnodbOptions): Promise<LocalInnodbServer> {
    const server = new LocalInnodbServer(options.binaries, options.settings ?? {});
    track(server);
    try {
      server.initialise();
      await server.launch();
      return server;
    } catch (err) {
      await server.stop();
      throw err;
    }
  }

  get tmpDir(): string {
    return join(this.dir, 'tmp');
  }

  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  get socket(): string {
    return join(this.dir, 'mysqld.sock');
  }

  /** root with an empty password over TCP. */
  url(database = ''): string {
    return `mysql://root@127.0.0.1:${this.port}/${database}`;
  }

  private initialise(): void {
    const b = this.binaries;
    const args =
      b.product === 'mariadb'
        ? [
            '--no-defaults',
            `--datadir=${this.dataDir}`,
            `--tmpdir=${this.tmpDir}`,
            '--auth-root-authentication-method=normal',
            '--skip-test-db',
            '--skip-name-resolve',
          ]
        : ['--no-defaults', '--initialize-insecure', `--datadir=${this.dataDir}`, `--tmpdir=${this.tmpDir}`];
    const [cmd, full] = ownedCommand(this.owner, b.installDb, args);
    try {
      execFileSync(cmd, full, { stdio: 'pipe', cwd: this.dir });
    } catch (err) {
      const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
      throw new Error(`initialising ${b.product} failed: ${(e.stderr?.toString() || e.stdout?.toString() || e.message).trim()}`, { cause: err });
    }
  }

  private async launch(): Promise<void> {
    const { proc, port } = await startOnPort(
      this.port,
      (port) => ({
        owner: this.owner,
        command: this.binaries.server,
        args: [
          '--no-defaults',
          `--datadir=${this.dataDir}`,
          `--tmpdir=${this.tmpDir}`,
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${this.socket}`,
          `--pid-file=${join(this.dir, 'mysqld.pid')}`,
          ...optionArgs({ ...BASE_SETTINGS, ...this.settings }),
        ],
        logFile: this.logFile,
        stopSignal: 'SIGTERM', // clean shutdown
        probe: () => probe(port),
      }),
      /Address already in use|Can't start server: Bind/,
    );
    this.proc = proc;
    this.port = port;
  }

  /** Stop and start again: with the load at startup off, the buffer pool comes back empty. */
  async restart(settings?: Record<string, string | number | boolean>): Promise<void> {
    if (settings) this.settings = { ...this.settings, ...settings };
    await this.proc?.stop(120_000);
    this.proc = undefined;
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.proc?.stop(120_000);
    this.proc = undefined;
    untrack(this);
    rmSync(this.dir, { recursive: true, force: true });
  }

  killNow(): void {
    this.proc?.killNow();
  }

  logTail(lines = 20): string {
    return logTail(this.logFile, lines);
  }
}

async function probe(port: number): Promise<void> {
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 2000 });
  try {
    await conn.query('SELECT 1');
  } finally {
    await conn.end().catch(() => undefined);
  }
}
