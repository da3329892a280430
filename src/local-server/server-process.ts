// One database server child process: start it, wait until it answers, stop it, keep its log.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { ownedCommand, type OwnerIds } from './process-owner';
import { freePort } from './free-port';

export interface ServerProcessSpec {
  owner: OwnerIds;
  command: string;
  args: string[];
  logFile: string;
  /** Resolves once the server accepts connections; throws while it does not yet. */
  probe: () => Promise<void>;
  /** Signal for a clean, fast shutdown. */
  stopSignal: NodeJS.Signals;
  startTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export class ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly spec: ServerProcessSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const [cmd, args] = ownedCommand(this.spec.owner, this.spec.command, this.spec.args);
    const log = openSync(this.spec.logFile, 'a');
    const child = spawn(cmd, args, { stdio: ['ignore', log, log] });
    closeSync(log);
    // A server never keeps its parent alive: at exit the registry kills it, and the kernel does if the
    // parent dies first (process-owner.ts), so a test that timed out cannot hang the run.
    child.unref();
    this.child = child;
    let exitInfo: string | undefined;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        exitInfo = `exited with ${signal ?? code}`;
        resolve();
      });
      child.once('error', (err) => {
        exitInfo = `could not start: ${err.message}`;
        resolve();
      });
    });
    const deadline = Date.now() + (this.spec.startTimeoutMs ?? 60_000);
    let lastError: string;
    for (;;) {
      if (exitInfo) {
        this.child = undefined;
        throw new Error(`${this.spec.command} ${exitInfo}\n${logTail(this.spec.logFile)}`);
      }
      try {
        await this.spec.probe();
        return;
      } catch (err) {
        lastError = (err as Error).message;
      }
      if (Date.now() > deadline) {
        this.killNow();
        throw new Error(`${this.spec.command} did not accept connections in time (${lastError})\n${logTail(this.spec.logFile)}`);
      }
      await sleep(100);
    }
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.child = undefined;
      return;
    }
    child.kill(this.spec.stopSignal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([this.exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
    clearTimeout(timer);
    if (timedOut) {
      child.kill('SIGKILL');
      await this.exited;
    }
    this.child = undefined;
  }

  /** Immediate kill, for process exit where nothing can be awaited. */
  killNow(): void {
    try {
      this.child?.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Starts a server on `preferredPort`, or on a free port of 127.0.0.1 when it is 0. Another process may take
 * a free port between the look-up and the server's bind(): then it tries a new one, up to three times.
 */
export async function startOnPort(
  preferredPort: number,
  spec: (port: number) => ServerProcessSpec,
  portTaken: RegExp,
): Promise<{ proc: ServerProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = preferredPort || (await freePort());
    const proc = new ServerProcess(spec(port));
    try {
      await proc.start();
      return { proc, port };
    } catch (err) {
      if (preferredPort || !portTaken.test((err as Error).message) || attempt >= 3) throw err;
    }
  }
}
