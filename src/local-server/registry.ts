// Servers started by this process, so that every one of them is stopped at exit,
// also when a test fails or the run is interrupted.
import { rmSync } from 'node:fs';

export interface Stoppable {
  /** Graceful stop; removes the server's files. */
  stop(): Promise<void>;
  /** Last resort at process exit: no waiting allowed. */
  killNow(): void;
  readonly dir: string;
}

const live = new Set<Stoppable>();
let hooked = false;

function hookProcess(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const s of live) {
      s.killNow();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
}

export function track(s: Stoppable): void {
  hookProcess();
  live.add(s);
}

export function untrack(s: Stoppable): void {
  live.delete(s);
}

export async function stopAll(): Promise<void> {
  await Promise.allSettled([...live].map((s) => s.stop()));
}
