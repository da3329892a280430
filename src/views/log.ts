// The BufferLens output channel (View: Output, BufferLens): every measurement, workload run and connection
// change, and every error, where a user can go back to them after a toast is gone. Never a password:
// connections are named by their profile and described without one, and any user:password@ in a message
// is masked before it is written.
import * as vscode from 'vscode';

const SHOW_LOG = 'Show Log';

/** A URL's user:password@, masked: a driver's message may echo what it was given. */
export const withoutPasswords = (text: string): string => text.replace(/(\/\/[^:/@\s]+):[^@\s]*@/g, '$1:***@');

export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('BufferLens', { log: true });

  info(message: string): void {
    this.channel.info(withoutPasswords(message));
  }

  warn(message: string): void {
    this.channel.warn(withoutPasswords(message));
  }

  error(message: string): void {
    this.channel.error(withoutPasswords(message));
  }

  /**
   * An error toast that stays findable: logged, with the fixes offered and Show Log beside them.
   * The fix chosen, or undefined (dismissed, or the log shown).
   */
  async showError(message: string, ...fixes: string[]): Promise<string | undefined> {
    this.error(message);
    const choice = await vscode.window.showErrorMessage(`BufferLens: ${message}`, ...fixes, SHOW_LOG);
    if (choice === SHOW_LOG) this.channel.show(true);
    return choice === SHOW_LOG ? undefined : choice;
  }

  dispose(): void {
    this.channel.dispose();
  }
}
