// Tiny DOM helpers: every text goes through textContent, never through HTML.
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

export function section(title: string, id: string, ...children: Node[]): HTMLElement {
  return el('section', { 'aria-labelledby': id }, el('h2', { id }, title), ...children);
}

export function table(headers: string[], rows: Array<Array<string | Node>>, caption?: string, numericFrom = 1): HTMLTableElement {
  const t = el('table');
  if (caption) t.append(el('caption', {}, caption));
  t.append(el('thead', {}, el('tr', {}, ...headers.map((h, i) => el('th', { scope: 'col', class: i >= numericFrom ? 'num' : '' }, h)))));
  const body = el('tbody');
  for (const r of rows) body.append(el('tr', {}, ...r.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : { class: i >= numericFrom ? 'num' : '' }, c))));
  t.append(body);
  return t;
}
