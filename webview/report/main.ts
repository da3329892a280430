// The report view in the browser. It renders only what the host sends by message.
import type { HostToReport, ReportToHost } from '../../src/shared/protocol';
import { assertNever } from '../../src/shared/assert-never';

interface VsCodeApi {
  postMessage(message: ReportToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root');

function render(message: HostToReport): void {
  if (!root) return;
  switch (message.type) {
    case 'showReport': {
      const heading = document.createElement('h1');
      heading.textContent = message.report.statement;
      root.replaceChildren(heading);
      break;
    }
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

window.addEventListener('message', (event: MessageEvent<HostToReport>) => render(event.data));
vscode.postMessage({ type: 'ready' });
