// pgbench's `\set` expressions: integer and double arithmetic, comparisons, boolean logic, CASE, and the
// functions a workload uses to draw its parameters. Integers stay integers (5 / 2 is 2), as pgbench's
// evaluator keeps them, so a key computed here is the key pgbench would send.
import { drawExponential, drawGaussian, drawPareto, drawSpecial, drawUniform, drawZipfian, type Uniform } from './distributions';

export type Value = { int: true; v: number } | { int: false; v: number };

export type Expr =
  | { kind: 'number'; value: Value }
  | { kind: 'variable'; name: string }
  | { kind: 'unary'; op: '-' | 'not' | '~'; arg: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'call'; name: string; args: Expr[] }
  | { kind: 'case'; whens: Array<[Expr, Expr]>; otherwise: Expr | undefined };

export class ExpressionError extends Error {}

export const int = (v: number): Value => ({ int: true, v: Math.trunc(v) });
const dbl = (v: number): Value => ({ int: false, v });

export interface EvalContext {
  variables: Map<string, Value>;
  random: Uniform;
}

const truthy = (x: Value): boolean => x.v !== 0;
const bool = (b: boolean): Value => int(b ? 1 : 0);

function asInt(x: Value, what: string): number {
  if (x.int) return x.v;
  if (!Number.isFinite(x.v)) throw new ExpressionError(`${what}: ${x.v} is not an integer`);
  return Math.trunc(x.v);
}

export function evaluate(e: Expr, ctx: EvalContext): Value {
  switch (e.kind) {
    case 'number':
      return e.value;
    case 'variable': {
      const v = ctx.variables.get(e.name);
      if (!v) throw new ExpressionError(`variable :${e.name} is not set`);
      return v;
    }
    case 'unary': {
      const x = evaluate(e.arg, ctx);
      if (e.op === '-') return x.int ? int(-x.v) : dbl(-x.v);
      if (e.op === 'not') return bool(!truthy(x));
      return int(~asInt(x, '~'));
    }
    case 'binary':
      return binary(e.op, e.left, e.right, ctx);
    case 'case': {
      for (const [cond, then] of e.whens) if (truthy(evaluate(cond, ctx))) return evaluate(then, ctx);
      return e.otherwise ? evaluate(e.otherwise, ctx) : int(0);
    }
    case 'call':
      return call(
        e.name,
        e.args.map((a) => evaluate(a, ctx)),
        ctx,
      );
  }
}

function binary(op: string, le: Expr, re: Expr, ctx: EvalContext): Value {
  if (op === 'and') return bool(truthy(evaluate(le, ctx)) && truthy(evaluate(re, ctx)));
  if (op === 'or') return bool(truthy(evaluate(le, ctx)) || truthy(evaluate(re, ctx)));
  const l = evaluate(le, ctx);
  const r = evaluate(re, ctx);
  const both = l.int && r.int;
  switch (op) {
    case '+':
      return both ? int(l.v + r.v) : dbl(l.v + r.v);
    case '-':
      return both ? int(l.v - r.v) : dbl(l.v - r.v);
    case '*':
      return both ? int(l.v * r.v) : dbl(l.v * r.v);
    case '/':
      if (r.v === 0) throw new ExpressionError('division by zero');
      return both ? int(l.v / r.v) : dbl(l.v / r.v);
    case '%':
      if (!both) throw new ExpressionError('% takes integers');
      if (r.v === 0) throw new ExpressionError('division by zero');
      return int(l.v % r.v);
    case '=':
      return bool(l.v === r.v);
    case '<>':
      return bool(l.v !== r.v);
    case '<':
      return bool(l.v < r.v);
    case '<=':
      return bool(l.v <= r.v);
    case '>':
      return bool(l.v > r.v);
    case '>=':
      return bool(l.v >= r.v);
    case '&':
      return int(asInt(l, '&') & asInt(r, '&'));
    case '|':
      return int(asInt(l, '|') | asInt(r, '|'));
    case '#':
      return int(asInt(l, '#') ^ asInt(r, '#'));
    case '<<':
      return int(asInt(l, '<<') * 2 ** asInt(r, '<<'));
    case '>>':
      return int(Math.floor(asInt(l, '>>') / 2 ** asInt(r, '>>')));
  }
  throw new ExpressionError(`operator ${op} is not supported`);
}

function call(name: string, a: Value[], ctx: EvalContext): Value {
  switch (name) {
    case 'abs':
      return a[0].int ? int(Math.abs(a[0].v)) : dbl(Math.abs(a[0].v));
    case 'int':
      return int(asInt(a[0], 'int()'));
    case 'double':
      return dbl(a[0].v);
    case 'sqrt':
      return dbl(Math.sqrt(a[0].v));
    case 'exp':
      return dbl(Math.exp(a[0].v));
    case 'ln':
      return dbl(Math.log(a[0].v));
    case 'pi':
      return dbl(Math.PI);
    case 'pow':
    case 'power':
      return dbl(a[0].v ** a[1].v);
    case 'mod':
      return binaryValues('%', a[0], a[1]);
    case 'debug':
      return a[0];
    case 'least':
    case 'greatest': {
      const pick = name === 'least' ? Math.min(...a.map((x) => x.v)) : Math.max(...a.map((x) => x.v));
      return a.every((x) => x.int) ? int(pick) : dbl(pick);
    }
    case 'random':
      return int(drawUniform(ctx.random, asInt(a[0], 'random()'), asInt(a[1], 'random()')));
    case 'random_exponential':
      return int(drawExponential(ctx.random, asInt(a[0], name), asInt(a[1], name), a[2].v));
    case 'random_gaussian':
      return int(drawGaussian(ctx.random, asInt(a[0], name), asInt(a[1], name), a[2].v));
    case 'random_zipfian':
      return int(drawZipfian(ctx.random, asInt(a[0], name), asInt(a[1], name), a[2].v));
    // sysbench's distributions, for its scripts written in pgbench syntax.
    case 'random_special':
      return int(drawSpecial(ctx.random, asInt(a[0], name), asInt(a[1], name), a[2]?.v, a[3]?.v, a[4]?.v));
    case 'random_pareto':
      return int(drawPareto(ctx.random, asInt(a[0], name), asInt(a[1], name), a[2]?.v));
  }
  throw new ExpressionError(`function ${name}() is not supported`);
}

function binaryValues(op: string, l: Value, r: Value): Value {
  return binary(op, { kind: 'number', value: l }, { kind: 'number', value: r }, { variables: new Map(), random: { next: () => 0 } });
}

/** The variables an expression reads. */
export function variablesOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.kind) {
    case 'variable':
      out.add(e.name);
      break;
    case 'unary':
      variablesOf(e.arg, out);
      break;
    case 'binary':
      variablesOf(e.left, out);
      variablesOf(e.right, out);
      break;
    case 'call':
      e.args.forEach((x) => variablesOf(x, out));
      break;
    case 'case':
      e.whens.forEach(([c, t]) => (variablesOf(c, out), variablesOf(t, out)));
      if (e.otherwise) variablesOf(e.otherwise, out);
      break;
    case 'number':
      break;
  }
  return out;
}

/**
 * An expression turned into a closure once, for the trace builder's millions of evaluations: the same
 * results as evaluate(), without walking the tree each time.
 */
export function compileExpression(e: Expr): (ctx: EvalContext) => Value {
  switch (e.kind) {
    case 'number': {
      const value = e.value;
      return () => value;
    }
    case 'variable': {
      const name = e.name;
      return (ctx) => {
        const v = ctx.variables.get(name);
        if (!v) throw new ExpressionError(`variable :${name} is not set`);
        return v;
      };
    }
    case 'call': {
      const args = e.args.map(compileExpression);
      if (e.name === 'random' && args.length === 2) {
        const [lo, hi] = args;
        return (ctx) => int(drawUniform(ctx.random, asInt(lo(ctx), 'random()'), asInt(hi(ctx), 'random()')));
      }
      const name = e.name;
      return (ctx) =>
        call(
          name,
          args.map((a) => a(ctx)),
          ctx,
        );
    }
    case 'binary': {
      if (e.op === 'and' || e.op === 'or') return (ctx) => evaluate(e, ctx);
      const l = compileExpression(e.left);
      const r = compileExpression(e.right);
      const op = e.op;
      if (op === '+')
        return (ctx) => {
          const a = l(ctx);
          const b = r(ctx);
          return a.int && b.int ? int(a.v + b.v) : dbl(a.v + b.v);
        };
      if (op === '*')
        return (ctx) => {
          const a = l(ctx);
          const b = r(ctx);
          return a.int && b.int ? int(a.v * b.v) : dbl(a.v * b.v);
        };
      return (ctx) => binaryValues(op, l(ctx), r(ctx));
    }
    default:
      return (ctx) => evaluate(e, ctx);
  }
}
