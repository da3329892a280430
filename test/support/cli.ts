// Runs the built CLI as a child process, the way users and CI jobs do.
import { spawn, spawnSync } from 'node:child_process';
import { waitUntil } from './wait';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

const ENV = { ...process.env, PGPASSWORD: '', MYSQL_PWD: '' };

export function cli(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', env: ENV, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Starts the CLI and hands back the child, for tests that interrupt it or its server. */
export function cliAsync(args: string[], env: NodeJS.ProcessEnv = {}): { child: ReturnType<typeof spawn>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, ['dist/cli.js', ...args], { env: { ...ENV, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  return { child, done };
}

export function measureJson(url: string, sql: string, ...flags: string[]) {
  const r = cli('measure', '--url', url, '--json', '--sql', sql, ...flags);
  if (r.code !== 0) throw new Error(`measure failed (${r.code}): ${r.err}`);
  return JSON.parse(r.out);
}

/** Starts the CLI, presses Ctrl-C once `active` says its statement runs on the server, and waits for it to end. */
export async function interruptWhenActive(args: string[], active: () => Promise<boolean>): Promise<CliResult> {
  const { child, done } = cliAsync(args);
  await waitUntil(active);
  child.kill('SIGINT');
  return done;
}
