// What the CLI prints comes partly from outside: SQL text, server messages, catalog names. A control
// character among them (ESC, CSI) would drive the terminal (retitle it, move the cursor), so every
// control but newline and tab is printed as a visible escape instead.

/** For readable output. */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** For JSON output: JSON.stringify escapes C0 controls but not C1 (U+0080–U+009F), which some terminals obey. */
export function jsonSafe(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
