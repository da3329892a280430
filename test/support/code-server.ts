// A real VS Code (code-server) for the end-to-end test: found in the cache scripts/install-code-server.sh fills.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Availability } from './engines';

export interface CodeServer {
  node: string;
  entry: string;
}

export function codeServer(): Availability<CodeServer> {
  const cache = join(process.env.BUFFERLENS_CACHE ?? join(homedir(), '.cache', 'bufferlens'), 'code-server-4.139.1');
  const entry = join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const node = join(cache, 'node24', 'node_modules', '.bin', 'node');
  return existsSync(entry) && existsSync(node)
    ? { ok: true, value: { node, entry } }
    : { ok: false, reason: `no code-server in ${cache} (scripts/install-code-server.sh installs it)` };
}
