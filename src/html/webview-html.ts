// The one HTML shell for BufferLens webviews: a strict CSP with a nonce, one script, one stylesheet, and
// an empty root. Data never goes into this HTML; it is sent by message. No vscode import, so the browser
// tests serve the very same page.
export interface WebviewHtmlParts {
  nonce: string;
  /** webview.cspSource: where the extension's media may load from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page every BufferLens view is: a CSP, a title, what the head and body hold. Callers escape their parts. */
export function htmlPage(p: { csp: string; title: string; head: string; body: string; bodyClass?: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(p.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${p.head}
<title>${escapeAttr(p.title)}</title>
</head>
<body${p.bodyClass ? ` class="${escapeAttr(p.bodyClass)}"` : ''}>
${p.body}
</body>
</html>
`;
}

export function webviewHtml(p: WebviewHtmlParts): string {
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${p.nonce}'`,
    `style-src ${p.cspSource}`,
    `img-src ${p.cspSource} data:`,
    `font-src ${p.cspSource}`,
  ].join('; ');
  return htmlPage({
    csp,
    title: p.title,
    head: `<link rel="stylesheet" href="${escapeAttr(p.styleUri)}">`,
    body: `<div id="root" data-view="report"></div>
<script nonce="${escapeAttr(p.nonce)}" src="${escapeAttr(p.scriptUri)}"></script>`,
  });
}
