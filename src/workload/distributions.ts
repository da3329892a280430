// The parameter distributions of pgbench's random functions, drawn the way pgbench draws them
// (src/bin/pgbench/pgbench.c), so a predicted workload sends the same mix of keys as the real one.
// Only the distribution has to match, not pgbench's generator: any uniform source will do.

export interface Uniform {
  /** Uniform in [0, 1). */
  next(): number;
}

export class DistributionError extends Error {}

/** random(lb, ub): every integer from lb to ub inclusive equally likely. */
export function drawUniform(u: Uniform, min: number, max: number): number {
  if (max < min) throw new DistributionError(`random(${min}, ${max}): the upper bound is below the lower bound`);
  return min + Math.floor(u.next() * (max - min + 1));
}

/** random_exponential(lb, ub, parameter): density falls as exp(-parameter·x) over the range. */
export function drawExponential(u: Uniform, min: number, max: number, parameter: number): number {
  if (!(parameter > 0)) throw new DistributionError(`random_exponential: the parameter must be greater than 0, not ${parameter}`);
  const cut = Math.exp(-parameter);
  const uniform = 1 - u.next();
  const rand = -Math.log(cut + (1 - cut) * uniform) / parameter;
  return min + Math.floor((max - min + 1) * rand);
}

/** random_gaussian(lb, ub, parameter): a normal variate cut at ±parameter standard deviations, mapped on the range. */
export function drawGaussian(u: Uniform, min: number, max: number, parameter: number): number {
  if (!(parameter >= 2)) throw new DistributionError(`random_gaussian: the parameter must be at least 2.0, not ${parameter}`);
  let stdev: number;
  do {
    // Box–Muller, as pg_prng_double_normal draws it.
    const u1 = 1 - u.next();
    const u2 = u.next();
    stdev = Math.sqrt(-2 * Math.log(u1)) * Math.sin(2 * Math.PI * u2);
  } while (stdev < -parameter || stdev >= parameter);
  const rand = (stdev + parameter) / (parameter * 2);
  return min + Math.floor((max - min + 1) * rand);
}

/**
 * random_zipfian(lb, ub, s): lb is the most frequent value, lb+1 the next, … (frequency ∝ 1/rank^s).
 * Devroye's rejection method, as pgbench uses it; PostgreSQL 13+ accepts 1.001 ≤ s ≤ 1000.
 */
export function drawZipfian(u: Uniform, min: number, max: number, s: number): number {
  if (!(s >= 1.001 && s <= 1000)) throw new DistributionError(`random_zipfian: the parameter must be from 1.001 to 1000, not ${s}`);
  const n = max - min + 1;
  if (n <= 1) return min;
  const b = 2 ** (s - 1);
  for (;;) {
    const x = Math.floor(u.next() ** (-1 / (s - 1)));
    const v = u.next();
    const t = (1 + 1 / x) ** (s - 1);
    if ((v * x * (t - 1)) / (b - 1) <= t / b && x <= n) return min - 1 + x;
  }
}

/**
 * random_special(lb, ub[, pct, res, iter]): sysbench's default 'special' distribution (sb_rand_special, with
 * its defaults --rand-spec-pct=1, --rand-spec-res=75, --rand-spec-iter=12): res % of the draws fall uniformly
 * in the pct % of the range around its middle, the rest are the mean of iter uniform draws over the range.
 * Drawn as sysbench draws it, the one uniform draw serving both the choice and the special value.
 */
export function drawSpecial(u: Uniform, min: number, max: number, pct = 1, res = 75, iter = 12): number {
  if (max < min) throw new DistributionError(`random_special(${min}, ${max}): the upper bound is below the lower bound`);
  if (!(pct > 0 && pct <= 100 && res >= 0 && res < 100 && iter >= 1))
    throw new DistributionError(`random_special: pct must be in (0, 100], res in [0, 100) and iter at least 1, not ${pct}, ${res}, ${iter}`);
  const t = max - min;
  const rnd = u.next();
  if (rnd * t * (100 / (100 - res)) < t) {
    let sum = 0;
    for (let i = 0; i < iter; i++) sum += u.next();
    return min + Math.floor((sum * t) / iter);
  }
  const d = (t * pct) / 100;
  return min + Math.floor(rnd * (d + 1) + t / 2 - (t * pct) / 200);
}

/** random_pareto(lb, ub[, h]): sysbench's 'pareto' (sb_rand_pareto, --rand-pareto-h=0.2): lb + (ub − lb + 1) · u^(ln h / ln(1 − h)). */
export function drawPareto(u: Uniform, min: number, max: number, h = 0.2): number {
  if (max < min) throw new DistributionError(`random_pareto(${min}, ${max}): the upper bound is below the lower bound`);
  if (!(h > 0 && h < 1)) throw new DistributionError(`random_pareto: h must be between 0 and 1, not ${h}`);
  return min + Math.floor((max - min + 1) * u.next() ** (Math.log(h) / Math.log(1 - h)));
}
