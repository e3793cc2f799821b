/**
 * How long something will take, predicted from how long it took before (a few durations of the same
 * deployment), and how sure that prediction can be: durations are taken as lognormal, and the spread of
 * a few samples is itself uncertain, so the prediction of the next one is a Student t on the log scale
 * whose degrees of freedom grow with the samples (wide with 1 to 3, close to normal with 10). A prior of
 * `priorSamples` pseudo-samples with spread `priorSpread` keeps a history of near-identical durations from
 * claiming a precision it has not shown (degrees of freedom are whole: the prior's pseudo-samples are).
 * No Pulumi or HTTP here: pure arithmetic, unit-tested.
 */

/** The predicted distribution of the next duration, on the log scale. */
export interface Predictive {
    /** Mean of ln(duration in ms). */
    logMean: number;
    /** Scale of the t distribution of the next ln(duration): spread and the mean's own uncertainty. */
    logScale: number;
    /** Degrees of freedom of that t distribution. */
    dof: number;
}

/** The prior: how many pseudo-samples of what log spread (0.1: durations within about 10 % of each other). */
export interface Prior {
    samples: number;
    spread: number;
}

/** The prediction from earlier durations (ms); undefined when there are none usable. */
export function predictive(durationsMs: readonly number[], prior: Prior): Predictive | undefined {
    const x = durationsMs.filter((d) => Number.isFinite(d) && d > 0).map(Math.log);
    const n = x.length;
    if (n === 0) return undefined;
    const logMean = x.reduce((a, b) => a + b, 0) / n;
    const sumSq = x.reduce((a, b) => a + (b - logMean) ** 2, 0);
    const dof = prior.samples + n - 1;
    const pooled = Math.sqrt((prior.samples * prior.spread ** 2 + sumSq) / dof);
    return { logMean, logScale: pooled * Math.sqrt(1 + 1 / n), dof };
}

/** The duration (ms) that the next one falls below with probability `p` (p = 0.002: almost surely longer). */
export function quantileMs(p: Predictive, prob: number): number {
    return Math.exp(p.logMean + p.logScale * tQuantile(prob, p.dof));
}

/**
 * The spacing (ms) of reads at `elapsedMs` that balances lag against calls: proportional to one over the
 * square root of the hazard (the chance of ending now, given not ended yet), which minimizes the expected
 * lag plus `lambdaMs` times the expected reads; clamped to [minMs, maxMs]. The hazard uses the normal
 * with the predictive's scale (the t's tails matter for where the window starts, not for its spacing).
 */
export function hazardSpacingMs(p: Predictive, elapsedMs: number, o: { lambdaMs: number; minMs: number; maxMs: number }): number {
    if (!(elapsedMs > 0)) return o.minMs;
    const z = (Math.log(elapsedMs) - p.logMean) / p.logScale;
    const density = normalPdf(z) / (p.logScale * elapsedMs);
    const survival = Math.max(1 - normalCdf(z), 1e-12);
    const spacing = Math.sqrt((2 * o.lambdaMs * survival) / Math.max(density, 1e-18));
    return Math.min(Math.max(spacing, o.minMs), o.maxMs);
}

const normalPdf = (z: number) => Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);

/** The standard normal CDF (Abramowitz and Stegun 7.1.26 on erf; error below 1.5e-7). */
export function normalCdf(z: number): number {
    const x = Math.abs(z) / Math.SQRT2;
    const t = 1 / (1 + 0.3275911 * x);
    const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
    return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The Student t CDF for a whole number of degrees of freedom, exact (Abramowitz and Stegun 26.7.3-4: a
 * finite series in the cosine of atan(t / sqrt(dof))).
 */
export function tCdf(t: number, dof: number): number {
    const v = Math.max(1, Math.round(dof));
    const theta = Math.atan(Math.abs(t) / Math.sqrt(v));
    const c2 = Math.cos(theta) ** 2;
    let term = 1;
    let sum = 1;
    let within: number;
    if (v % 2 === 1) {
        // 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)), v - 2 powers of cos.
        for (let k = 2; k <= v - 3; k += 2) sum += term *= (k / (k + 1)) * c2;
        within = v === 1 ? (2 * theta) / Math.PI : (2 / Math.PI) * (theta + Math.sin(theta) * Math.cos(theta) * sum);
    } else {
        // sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...).
        for (let k = 1; k <= v - 3; k += 2) sum += term *= (k / (k + 1)) * c2;
        within = Math.sin(theta) * sum;
    }
    return t >= 0 ? (1 + within) / 2 : (1 - within) / 2;
}

/** The Student t quantile for a whole number of degrees of freedom: `tCdf` inverted by bisection (exact to 1e-9). */
export function tQuantile(p: number, dof: number): number {
    let lo = -1e9;
    let hi = 1e9;
    for (let i = 0; i < 200 && hi - lo > 1e-9 * Math.max(1, Math.abs(lo)); i++) {
        const mid = (lo + hi) / 2;
        if (tCdf(mid, dof) < p) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}
