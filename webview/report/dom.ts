// Tiny DOM helpers: every text goes through textContent, never through HTML.
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

export function section(title: string, id: string, ...children: Node[]): HTMLElement {
  // The heading takes focus from the contents' links, so the keyboard lands where the eye does.
  return el('section', { 'aria-labelledby': id }, el('h2', { id, tabindex: '-1' }, title), ...children);
}

/** Links to every section, first on the page: each section is one Tab and Enter away. */
export function contents(sections: HTMLElement[]): HTMLElement {
  const links = sections.flatMap((s) => {
    const h = s.querySelector('h2');
    if (!h?.id) return [];
    const a = el('a', { href: `#${h.id}` }, h.textContent ?? '');
    a.addEventListener('click', (e) => {
      e.preventDefault();
      h.focus();
      h.scrollIntoView();
    });
    return [el('li', {}, a)];
  });
  return el('nav', { 'aria-label': 'Sections of the report', class: 'contents' }, el('ul', {}, ...links));
}

export function table(headers: string[], rows: Array<Array<string | Node>>, caption?: string, numericFrom = 1): HTMLTableElement {
  // Focusable, so a wide table scrolls from the keyboard too.
  const t = el('table', { tabindex: '0', ...(caption ? {} : { 'aria-label': headers.filter(Boolean).join(', ') }) });
  if (caption) t.append(el('caption', {}, caption));
  t.append(el('thead', {}, el('tr', {}, ...headers.map((h, i) => el('th', { scope: 'col', class: i >= numericFrom ? 'num' : '' }, h)))));
  const body = el('tbody');
  for (const r of rows)
    body.append(el('tr', {}, ...r.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : { class: i >= numericFrom ? 'num' : '' }, c))));
  t.append(body);
  return t;
}
