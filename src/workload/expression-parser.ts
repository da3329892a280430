// pgbench's expression grammar (\\set lines): tokens, then precedence climbing into an Expr tree, with
// each function's arity checked as it is read. Evaluation is expression.ts's.
import { ExpressionError, int, type Expr, type Value } from './expression';

const dbl = (v: number): Value => ({ int: false, v });

type Token = { t: 'num'; value: Value } | { t: 'var'; name: string } | { t: 'id'; name: string } | { t: 'op'; op: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  // Groups: a float, an integer, a :variable, a function name, an operator or punctuation.
  const float = String.raw`\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+`;
  const re = new RegExp(String.raw`\s*(?:(${float})|(\d+)|:([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)|(<=|>=|<>|!=|<<|>>|[-+*/%(),<>=&|#~]))`, 'y');
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new ExpressionError(`unexpected "${text.slice(i).trim().slice(0, 12)}" in expression "${text.trim()}"`);
    if (m[1] !== undefined) out.push({ t: 'num', value: dbl(Number(m[1])) });
    else if (m[2] !== undefined) out.push({ t: 'num', value: int(Number(m[2])) });
    else if (m[3] !== undefined) out.push({ t: 'var', name: m[3] });
    else if (m[4] !== undefined) out.push({ t: 'id', name: m[4].toLowerCase() });
    else out.push({ t: 'op', op: m[5] === '!=' ? '<>' : m[5] });
    i = re.lastIndex;
  }
  return out;
}

/** Binding strength of each binary operator, as in pgbench's grammar (exprparse.y). */
const PRECEDENCE: Record<string, number> = {
  or: 1,
  and: 2,
  '=': 4,
  '<>': 4,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '|': 5,
  '#': 5,
  '&': 5,
  '<<': 5,
  '>>': 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  '%': 7,
};

export function parseExpression(text: string): Expr {
  const parser = new ExpressionParser(text);
  const e = parser.binary(1);
  if (!parser.atEnd()) throw new ExpressionError(`unexpected text after the expression "${text.trim()}"`);
  return e;
}

/** Precedence climbing over pgbench's expression grammar. */
class ExpressionParser {
  private readonly tokens: Token[];
  private pos = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  binary(minPrec: number): Expr {
    let left = this.unary();
    for (;;) {
      const op = this.binaryOp();
      if (!op || PRECEDENCE[op] < minPrec) return left;
      this.pos++;
      left = { kind: 'binary', op, left, right: this.binary(PRECEDENCE[op] + 1) };
    }
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return (t?.t === 'op' && t.op === op) || (t?.t === 'id' && t.name === op);
  }

  /** Takes `op` where it is next; true where it was. */
  private take(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.pos++;
    return true;
  }

  private expect(op: string): void {
    if (!this.take(op)) throw new ExpressionError(`expected "${op}" in expression "${this.text.trim()}"`);
  }

  private binaryOp(): string | undefined {
    const t = this.peek();
    if (t?.t === 'op' && PRECEDENCE[t.op]) return t.op;
    if (t?.t === 'id' && (t.name === 'and' || t.name === 'or')) return t.name;
    return undefined;
  }

  private unary(): Expr {
    if (this.take('-')) return { kind: 'unary', op: '-', arg: this.unary() };
    if (this.take('+')) return this.unary();
    if (this.take('~')) return { kind: 'unary', op: '~', arg: this.unary() };
    if (this.take('not')) return { kind: 'unary', op: 'not', arg: this.binary(3) };
    return this.primary();
  }

  private primary(): Expr {
    const t = this.peek();
    if (!t) throw new ExpressionError(`expression "${this.text.trim()}" ends too early`);
    this.pos++;
    if (t.t === 'num') return { kind: 'number', value: t.value };
    if (t.t === 'var') return { kind: 'variable', name: t.name };
    if (t.t === 'op' && t.op === '(') {
      const e = this.binary(1);
      this.expect(')');
      return e;
    }
    if (t.t !== 'id') throw new ExpressionError(`unexpected "${t.t === 'op' ? t.op : ''}" in expression "${this.text.trim()}"`);
    if (t.name === 'true' || t.name === 'false') return { kind: 'number', value: int(t.name === 'true' ? 1 : 0) };
    if (t.name === 'case') return this.caseExpr();
    return this.call(t.name);
  }

  private caseExpr(): Expr {
    const whens: Array<[Expr, Expr]> = [];
    while (this.take('when')) {
      const cond = this.binary(1);
      this.expect('then');
      whens.push([cond, this.binary(1)]);
    }
    const otherwise = this.take('else') ? this.binary(1) : undefined;
    this.expect('end');
    return { kind: 'case', whens, otherwise };
  }

  private call(name: string): Expr {
    this.expect('(');
    const args: Expr[] = [];
    if (!this.isOp(')')) {
      args.push(this.binary(1));
      while (this.take(',')) args.push(this.binary(1));
    }
    this.expect(')');
    checkCall(name, args.length, this.text);
    return { kind: 'call', name, args };
  }
}

const ARITY: Record<string, [number, number]> = {
  abs: [1, 1],
  int: [1, 1],
  double: [1, 1],
  sqrt: [1, 1],
  exp: [1, 1],
  ln: [1, 1],
  pi: [0, 0],
  pow: [2, 2],
  power: [2, 2],
  mod: [2, 2],
  least: [1, 99],
  greatest: [1, 99],
  debug: [1, 1],
  random: [2, 2],
  random_exponential: [3, 3],
  random_gaussian: [3, 3],
  random_zipfian: [3, 3],
  random_special: [2, 5],
  random_pareto: [2, 3],
};

function checkCall(name: string, n: number, text: string): void {
  const a = ARITY[name];
  if (!a) throw new ExpressionError(`function ${name}() is not supported in "${text.trim()}" (supported: ${Object.keys(ARITY).join(', ')})`);
  if (n < a[0] || n > a[1]) throw new ExpressionError(`${name}() takes ${a[0] === a[1] ? a[0] : `${a[0]} to ${a[1]}`} arguments in "${text.trim()}"`);
}
