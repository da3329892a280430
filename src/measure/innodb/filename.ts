// The tablespace views name tables as their files are named: every character but ASCII letters, digits
// and '_' written as @ and four hex digits (the server's "filename" character set), so `a<b>` is
// a@003cb@003e there. Names are encoded to look them up and decoded when read back.

export function toFilename(name: string): string {
  let out = '';
  for (const ch of name) {
    if (/^[A-Za-z0-9_]$/.test(ch)) out += ch;
    else {
      const cp = ch.codePointAt(0)!;
      out +=
        cp <= 0xffff
          ? `@${cp.toString(16).padStart(4, '0')}`
          : [...String.fromCodePoint(cp)].map((u) => `@${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    }
  }
  return out;
}

export function fromFilename(name: string): string {
  return name.replace(/@([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
