// One self-contained HTML page with the very view the editor panel shows (the same page shell): the report
// view's script and stylesheet inlined, the data in an inert JSON script element, no network (default-src 'none').
// Used by `bufferlens report --html` and by Export Report; no vscode import.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostToReport } from '../shared/protocol';
import { htmlPage } from './webview-html';

/** JSON safe inside a <script> element: "<" never appears, so "</script>" cannot close it. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function standaloneHtml(message: HostToReport, mediaDir: string, theme: 'light' | 'dark' = 'light'): string {
  const script = readFileSync(join(mediaDir, 'dist', 'report.js'), 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  const css = readFileSync(join(mediaDir, 'report.css'), 'utf8');
  const nonce = randomBytes(16).toString('base64');
  const title =
    message.type === 'showReport'
      ? 'BufferLens report'
      : message.type === 'showComparison'
        ? 'BufferLens comparison'
        : message.type === 'showWorkload'
          ? 'BufferLens workload'
          : 'BufferLens';
  return htmlPage({
    csp: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:`,
    title,
    head: `<style nonce="${nonce}">${css}</style>`,
    bodyClass: theme,
    body: `<div id="root"></div>
<script type="application/json" id="bufferlens-data">${inertJson(message)}</script>
<script nonce="${nonce}">${script.replace(/<\/script/gi, '<\\/script')}</script>`,
  });
}
