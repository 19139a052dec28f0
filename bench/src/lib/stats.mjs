// Small, explicit statistics: the harness reports medians with their spread, never means.

/** Linear-interpolated quantile (q in [0, 1]) of a non-empty list. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export const median = (values) => quantile(values, 0.5);

/** { n, median, min, max, q1, q3 } of the samples (in their own unit). */
export function summarize(samples) {
  return {
    n: samples.length,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    q1: quantile(samples, 0.25),
    q3: quantile(samples, 0.75),
  };
}
