// A real VS Code (code-server) with the built extension installed, driven through headless Chromium: shared by
// the end-to-end test and the editor benchmark, so both see the same editor start the same way.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageInCopy } from './package-copy';
import type { Frame, Page } from 'playwright-core';
import { freePort } from '../../src/local-server/free-port';
import type { CodeServer } from './code-server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Workbench {
  port: number;
  userData: string;
  workspace: string;
  stop(): void;
}

/** Packages the extension as a .vsix in `dir` (a production build, from a copy of the project). */
export function packageExtension(dir: string): string {
  const vsix = join(dir, 'bufferlens.vsix');
  packageInCopy(vsix);
  return vsix;
}

async function waitForHttp(url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer at ${url}`);
    await sleep(250);
  }
}

/**
 * code-server on a free loopback port, with its own user settings, the .vsix installed and a workspace of
 * `files`, under `dir`. Stopped by `stop()`, and killed with this process should a caller never get there.
 */
export async function startWorkbench(
  server: CodeServer,
  dir: string,
  vsix: string,
  settings: Record<string, unknown>,
  files: Record<string, string>,
): Promise<Workbench> {
  const userData = join(dir, 'user');
  const extensions = join(dir, 'extensions');
  const workspace = join(dir, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', ...settings }),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(workspace, name), text);
  execFileSync(server.node, [server.entry, '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix], { stdio: 'pipe' });
  const port = await freePort();
  const args = ['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check'];
  const cs = spawn(server.node, [server.entry, ...args, '--user-data-dir', userData, '--extensions-dir', extensions, workspace], { stdio: 'ignore' });
  // Unreferenced, and killed as the process exits: a caller that times out neither hangs on it nor leaves it behind.
  cs.unref();
  const kill = () => cs.kill('SIGKILL');
  process.once('exit', kill);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
  return {
    port,
    userData,
    workspace,
    stop: () => {
      process.removeListener('exit', kill);
      cs.kill();
    },
  };
}

/** The workbench on its folder, with a file opened from the explorer: the workbench then takes the keyboard (and the extension is active for SQL files). */
export async function openWorkspaceFile(page: Page, port: number, folder: string, file: string): Promise<void> {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).click({ timeout: 60_000 });
}

/** The first frame (webviews are frames) holding `selector`, polled every `everyMs` for up to `ms`. */
export async function findInFrames(page: Page, selector: string, ms: number, everyMs = 300): Promise<Frame> {
  const deadline = Date.now() + ms;
  for (;;) {
    for (const f of page.frames()) {
      if (
        await f
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return f;
    }
    if (Date.now() > deadline) throw new Error(`no frame with ${selector}`);
    await sleep(everyMs);
  }
}

/** A BufferLens command from the palette, by its title. */
export async function bufferlensCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
  await page.keyboard.type(`BufferLens: ${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/**
 * The BufferLens side bar shown, whatever state the workbench restored: its activity-bar item toggles, and a
 * page opened after another may come back with the side bar already showing, where one click would hide it.
 * Clicked until the Connections view's header is visible.
 */
export async function showBufferLensSideBar(page: Page): Promise<void> {
  const item = page.locator('.activitybar a[aria-label^="BufferLens"], .activitybar .action-item a[aria-label*="BufferLens"]').first();
  const header = page.locator('.pane-header', { hasText: 'Connections' }).first();
  await item.waitFor({ timeout: 30_000 });
  for (const deadline = Date.now() + 30_000; !(await header.isVisible());) {
    if (Date.now() > deadline) throw new Error('the BufferLens side bar does not show');
    await item.click();
    await header.waitFor({ timeout: 5_000 }).catch(() => undefined);
  }
}

/** Every file under a folder whose name matches, however deep (the editor's log folders are dated). */
export function filesNamed(folder: string, name: RegExp): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => name.test(f))
    .map((f) => join(folder, f));
}

/**
 * What the workbench shows, for a failure message: a modal dialog, an open quick input, the notifications and
 * the side bar's panes with their rows. A wait that times out then says what stood in its way, not only what
 * it waited for (CI keeps the message, not the screenshot).
 */
export async function workbenchState(page: Page): Promise<string> {
  const texts = async (selector: string) =>
    (
      await page
        .locator(selector)
        .allInnerTexts()
        .catch(() => [] as string[])
    )
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  const parts = [
    ['dialog', await texts('.monaco-dialog-box')],
    ['quick input', await texts('.quick-input-widget:visible')],
    ['notifications', await texts('.notifications-toasts .notification-toast')],
    ['side bar panes', await texts('.sidebar .pane')],
  ] as const;
  return parts.map(([what, t]) => `${what}: ${t.length ? t.join(' | ') : '(none)'}`).join('\n');
}

/** Waits for a locator to be visible; on timeout fails with what the workbench shows instead. */
export async function waitShowing(page: Page, what: { waitFor(o: { timeout: number }): Promise<void> }, name: string, ms: number): Promise<void> {
  try {
    await what.waitFor({ timeout: ms });
  } catch (err) {
    await page.screenshot({ path: join('test-output', `e2e-not-showing-${name.replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
    throw new Error(
      `${name} did not show within ${ms / 1000} s (${(err as Error).message.split('\n')[0]}); the workbench showed:\n${await workbenchState(page)}`,
      {
        cause: err,
      },
    );
  }
}
