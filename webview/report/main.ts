// The report view in the browser: in a VS Code webview (data by message) or in a standalone HTML page
// written by `bufferlens report --html` (data in an inert JSON script element). The same code renders both.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { HostToReport, ReportToHost } from '../../src/shared/protocol';
import { assertNever } from '../../src/shared/assert-never';
import { renderComparison, renderReport } from './render';
import { redrawCharts } from './charts';
import { renderWorkload } from './workload';

interface VsCodeApi {
  postMessage(message: ReportToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('root')!;
const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;

function show(message: HostToReport): void {
  switch (message.type) {
    case 'measuring': {
      const p = document.createElement('p');
      p.className = 'measuring';
      p.setAttribute('role', 'status');
      p.setAttribute('aria-busy', 'true');
      p.textContent = `Measuring on ${message.connection}: ${message.statement}`;
      root.replaceChildren(p);
      break;
    }
    case 'showReport':
      renderReport(
        root,
        message.report,
        vscode ? { onExport: (format) => vscode.postMessage({ type: 'exportReport', format }), onRerun: () => vscode.postMessage({ type: 'rerun' }) } : {},
      );
      break;
    case 'showComparison':
      renderComparison(root, message.left, message.right);
      break;
    case 'showWorkload':
      renderWorkload(root, message.report);
      break;
    case 'error': {
      const p = document.createElement('p');
      p.setAttribute('role', 'alert');
      p.textContent = message.message;
      root.replaceChildren(p);
      break;
    }
    default:
      assertNever(message);
  }
}

// VS Code marks the theme on the body (vscode-light, vscode-dark, vscode-high-contrast): a switch redraws
// the charts, whose colours are read when they are drawn.
new MutationObserver(() => redrawCharts()).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });

if (vscode) {
  window.addEventListener('message', (event: MessageEvent<HostToReport>) => show(event.data));
  vscode.postMessage({ type: 'ready' });
} else {
  const data = document.getElementById('bufferlens-data');
  if (data?.textContent) show(JSON.parse(data.textContent) as HostToReport);
}
