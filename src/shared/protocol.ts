// Messages between the extension host and the report webview. Both sides switch on `type` and end in
// assertNever; the host validates every message from the webview with isReportToHost (webview input is untrusted).
import type { Report } from './report';
import type { WorkloadReport } from './workload-report';

/** Host → webview. */
export type HostToReport =
  /** A measurement has begun: the panel opens at the click, and the webview loads while the statement runs. */
  | { type: 'measuring'; statement: string; connection: string }
  | { type: 'showReport'; report: Report }
  | { type: 'showComparison'; left: Report; right: Report }
  | { type: 'showWorkload'; report: WorkloadReport }
  | { type: 'error'; message: string };

/** Webview → host. */
export type ReportToHost = { type: 'ready' } | { type: 'exportReport'; format: 'json' | 'markdown' | 'html' } | { type: 'rerun' };

export function isReportToHost(value: unknown): value is ReportToHost {
  if (typeof value !== 'object' || value === null) return false;
  const msg = value as Record<string, unknown>;
  switch (msg.type) {
    case 'ready':
    case 'rerun':
      return Object.keys(msg).length === 1;
    case 'exportReport':
      return Object.keys(msg).length === 2 && (msg.format === 'json' || msg.format === 'markdown' || msg.format === 'html');
    default:
      return false;
  }
}
