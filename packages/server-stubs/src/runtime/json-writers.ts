/**
 * Whether writing JSON through the compiled writers is faster than the check function and
 * `JSON.stringify` on this engine, as measured (BENCHMARKS.md, "JSON writers"): on V8 11 (Node
 * 20) the router's path to bytes ran at 1.26× its rate before; from V8 12 (Node 22, 24)
 * `JSON.stringify` is about 1.5× faster, and the same path measured 0.83× (Node 22) and 1.0×
 * (Node 24). The default of the router's `jsonWriters` option.
 */
export const jsonWritersPayOff: boolean = Number.parseInt(process.versions.v8, 10) < 12;
