/**
 * How many ways a backtracking engine can walk the automaton over one input, after the
 * published analysis of ReDoS (Weideman, van der Merwe, Berglund, Watson: "Analyzing matching
 * time behavior of backtracking regular expression matchers by using ambiguity of NFA", 2016):
 *
 * - exponential degree of ambiguity (EDA): some state has two distinct loops over the same
 *   word; each repetition of the word doubles the paths the engine tries when the match fails.
 *   Found in the product automaton: a strongly connected component holding a pair (q, q) and a
 *   pair (p, r) with p != r, or a loop through a transition the engine can take two ways.
 * - infinite degree of ambiguity (IDA): states p != q and a word v with p -v-> p, p -v-> q,
 *   q -v-> q (a path in the triple product from (p, p, q) to (p, q, q)). A chain of k loops
 *   linked this way makes the failing match cost n^k steps.
 *
 * Before that, the states where a match may end (no `$` or other assertion left) are removed:
 * the engine that reaches one succeeds there at the latest, so the failing paths it explores
 * run between such states (this is why `[a-z]+` and `[a-z]+(-[a-z]+)*`, unanchored, are linear).
 *
 * The work is bounded by a step budget: when it runs out, the analysis assumes the worse case
 * it was checking, so the answer may be over-approximated but is never too low.
 */
import { readableClass, sharedClass, type Alphabet } from './alphabet.js';
import type { PositionAutomaton } from './position-automaton.js';

/** A word as classes of the alphabet. */
export type Word = readonly number[];

export type Ambiguity =
  | { readonly kind: 'linear'; readonly loop: { readonly prefix: Word; readonly pump: Word } | undefined }
  | { readonly kind: 'exponential'; readonly prefix: Word | undefined; readonly pump: Word | undefined }
  | { readonly kind: 'polynomial'; readonly degree: number; readonly prefix: Word | undefined; readonly pump: Word | undefined };

const STEP_BUDGET = 4_000_000;

class Budget {
  private steps = 0;
  spend(n = 1): boolean {
    this.steps += n;
    return this.steps <= STEP_BUDGET;
  }
}

export function analyzeAmbiguity(automaton: PositionAutomaton, alphabet: Alphabet): Ambiguity {
  preference = alphabet.preference;
  const n = automaton.successors.length;
  const reachable = reachableStates(automaton);
  // Once the engine stands where the match may end, the match succeeds: whatever it tries
  // after that, it ends there at worst, and never backtracks before it. So the paths it can
  // pile up are those between such states, and only there do loops count.
  const live = reachable.map((r, s) => r && !automaton.acceptsHere[s]);
  const edges: Array<Array<{ to: number; paths: number }>> = automaton.successors.map((list, from) => (live[from] ? list.filter((e) => live[e.to]) : []));
  const reachableEdges = automaton.successors.map((list, from) => (reachable[from] ? list : []));
  const component = stronglyConnected(n, (s) => edges[s]!.map((e) => e.to));
  const cyclic = new Array<boolean>(n).fill(false);
  for (let s = 0; s < n; s++) for (const e of edges[s]!) if (component[e.to] === component[s]) cyclic[component[s]!] = true;
  const budget = new Budget();
  const labels = alphabet.classesOf;
  const prefixTo = (state: number) => shortestWord(reachableEdges, labels, state);

  // Exponential: a loop through a transition taken two ways.
  for (let s = 0; s < n; s++) {
    for (const e of edges[s]!) {
      if (e.paths < 2 || component[e.to] !== component[s]) continue;
      const back = wordWithin(edges, labels, e.to, s, (t) => component[t] === component[s]);
      return { kind: 'exponential', prefix: prefixTo(s), pump: back && [firstClass(labels[e.to]!), ...back] };
    }
  }
  // Exponential: two distinct loops over one word, in the product automaton within one component.
  const twoLoops = exponentialWitness(n, edges, labels, component, cyclic, budget);
  if (twoLoops === 'budget') return { kind: 'exponential', prefix: undefined, pump: undefined };
  if (twoLoops) return { kind: 'exponential', prefix: prefixTo(twoLoops.state), pump: twoLoops.word };

  // Polynomial: the longest chain of loops linked by infinite ambiguity.
  const loopsOf = new Map<number, number[]>();
  for (let s = 0; s < n; s++) if (live[s] && cyclic[component[s]!]) loopsOf.set(component[s]!, [...(loopsOf.get(component[s]!) ?? []), s]);
  if (loopsOf.size === 0) return { kind: 'linear', loop: undefined };
  const reaches = reachability(n, edges);
  // Tarjan numbers components in reverse topological order: a component reaches only lower numbers.
  const order = [...loopsOf.keys()].sort((a, b) => a - b);
  const chain = new Map<number, { length: number; link?: { p: number; word: Word | undefined } }>();
  for (const c of order) {
    let best: { length: number; link?: { p: number; word: Word | undefined } } = { length: 1 };
    for (const d of order) {
      if (d >= c || (chain.get(d)?.length ?? 1) + 1 <= best.length) continue;
      const link = findLink(loopsOf.get(c)!, loopsOf.get(d)!, edges, labels, component, reaches, budget);
      if (link) best = { length: chain.get(d)!.length + 1, link };
    }
    chain.set(c, best);
  }
  let top: { length: number; link?: { p: number; word: Word | undefined } } = { length: 1 };
  for (const c of order) if (chain.get(c)!.length > top.length) top = chain.get(c)!;
  if (top.length < 2) {
    // Linear, but with a loop: a lookaround with this body costs up to n steps each time.
    const state = loopsOf.get(order[order.length - 1]!)![0]!;
    const pump = wordWithin(edges, labels, state, state, (t) => component[t] === component[state]) ?? [];
    return { kind: 'linear', loop: { prefix: prefixTo(state), pump } };
  }
  // The search loop is entered before the first character: its attack needs no prefix.
  const p = top.link!.p;
  return { kind: 'polynomial', degree: top.length, prefix: p === automaton.searchState ? [] : prefixTo(p), pump: top.link!.word };
}

/** The states the engine can reach from the start. */
function reachableStates(automaton: PositionAutomaton): boolean[] {
  const reachable = new Array<boolean>(automaton.successors.length).fill(false);
  reachable[0] = true;
  const stack = [0];
  while (stack.length) for (const e of automaton.successors[stack.pop()!]!) if (!reachable[e.to]) reachable[e.to] = true, stack.push(e.to);
  return reachable;
}

/** Tarjan's algorithm, iterative; components are numbered in reverse topological order. */
export function stronglyConnected(n: number, next: (s: number) => readonly number[]): number[] {
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const component = new Array<number>(n).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let components = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const work: Array<[number, number]> = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (work.length) {
      const frame = work[work.length - 1]!;
      const [s, i] = frame;
      const out = next(s);
      if (i < out.length) {
        frame[1]++;
        const t = out[i]!;
        if (index[t] === -1) {
          index[t] = low[t] = counter++;
          stack.push(t);
          onStack[t] = true;
          work.push([t, 0]);
        } else if (onStack[t]) low[s] = Math.min(low[s]!, index[t]!);
        continue;
      }
      work.pop();
      if (work.length) low[work[work.length - 1]![0]] = Math.min(low[work[work.length - 1]![0]]!, low[s]!);
      if (low[s] === index[s]) {
        let t: number;
        do {
          t = stack.pop()!;
          onStack[t] = false;
          component[t] = components;
        } while (t !== s);
        components++;
      }
    }
  }
  return component;
}

let preference: readonly number[] = [];

/** The class a word is spelled with at a step into a state with this label. */
function firstClass(set: Uint32Array): number {
  return readableClass(preference, set);
}

type Edges = ReadonlyArray<ReadonlyArray<{ readonly to: number; readonly paths: number }>>;
type Labels = Alphabet['classesOf'];

/** The shortest word leading from the start to `target` (breadth-first, lowest states first). */
function shortestWord(edges: Edges, labels: Labels, target: number): Word {
  return wordWithin(edges, labels, 0, target, () => true) ?? [];
}

/** A shortest word from `from` to `to` (at least one step when from === to) through states `allowed` accepts. */
function wordWithin(edges: Edges, labels: Labels, from: number, to: number, allowed: (s: number) => boolean): Word | undefined {
  const parent = new Map<number, number>();
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    for (const e of edges[s]!) {
      if (!allowed(e.to) || parent.has(e.to)) continue;
      parent.set(e.to, s);
      if (e.to === to) {
        const word: number[] = [];
        let t = to;
        do {
          word.unshift(firstClass(labels[t]!));
          t = parent.get(t)!;
        } while (t !== from);
        return word;
      }
      queue.push(e.to);
    }
  }
  return undefined;
}

/** A state with two distinct loops over one word, and that word; 'budget' when the search ran out. */
function exponentialWitness(n: number, edges: Edges, labels: Labels, component: number[], cyclic: boolean[], budget: Budget): { state: number; word: Word } | 'budget' | undefined {
  const members = new Map<number, number[]>();
  for (let s = 0; s < n; s++) if (edges[s]!.length && cyclic[component[s]!]) members.set(component[s]!, [...(members.get(component[s]!) ?? []), s]);
  for (const [c, states] of [...members].sort((a, b) => b[0] - a[0])) {
    if (states.length < 2) continue; // one state, one self-loop: a single loop
    const local = new Map(states.map((s, i) => [s, i]));
    const k = states.length;
    const pairNext = (node: number): number[] => {
      const a = states[Math.floor(node / k)]!;
      const b = states[node % k]!;
      const out: number[] = [];
      for (const ea of edges[a]!) {
        if (component[ea.to] !== c) continue;
        for (const eb of edges[b]!) {
          if (component[eb.to] !== c) continue;
          if (!budget.spend()) return out;
          if (sharedClass(labels[ea.to]!, labels[eb.to]!) >= 0) out.push(local.get(ea.to)! * k + local.get(eb.to)!);
        }
      }
      return out;
    };
    const adjacency: number[][] = [];
    for (let node = 0; node < k * k; node++) adjacency.push(pairNext(node));
    if (!budget.spend(0)) return 'budget';
    const pairComponent = stronglyConnected(k * k, (node) => adjacency[node]!);
    for (let i = 0; i < k; i++) {
      const diagonal = i * k + i;
      for (let node = 0; node < k * k; node++) {
        if (pairComponent[node] !== pairComponent[diagonal] || Math.floor(node / k) === node % k) continue;
        // (q,q) -> (p,r) -> (q,q): the two projections are distinct loops at q over one word.
        const there = pairWord(adjacency, states, labels, k, diagonal, node);
        const back = pairWord(adjacency, states, labels, k, node, diagonal);
        return { state: states[i]!, word: there && back ? [...there, ...back] : [] };
      }
    }
  }
  return undefined;
}

function pairWord(adjacency: number[][], states: number[], labels: Labels, k: number, from: number, to: number): Word | undefined {
  const parent = new Map<number, number>();
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const next of adjacency[node]!) {
      if (parent.has(next)) continue;
      parent.set(next, node);
      if (next === to) {
        const word: number[] = [];
        for (let t = to; ; ) {
          word.unshift(readableClass(preference, labels[states[Math.floor(t / k)]!]!, labels[states[t % k]!]!));
          t = parent.get(t)!;
          if (t === from) break;
        }
        return word;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** `reaches(from, to)`: whether a path leads from one state to the other (one backward search per target, kept). */
function reachability(n: number, edges: Edges): (from: number, to: number) => boolean {
  const predecessors: number[][] = Array.from({ length: n }, () => []);
  edges.forEach((list, from) => list.forEach((e) => predecessors[e.to]!.push(from)));
  const reaching = new Map<number, Uint8Array>();
  return (from, to) => {
    let set = reaching.get(to);
    if (!set) {
      set = new Uint8Array(n);
      const stack = [to];
      while (stack.length) for (const p of predecessors[stack.pop()!]!) if (!set[p]) set[p] = 1, stack.push(p);
      reaching.set(to, set);
    }
    return set[from] === 1;
  };
}

/**
 * Whether a loop of `upper` and a loop of `lower` (a later component) are linked by infinite
 * ambiguity, with the pumped word; assumed linked (word unknown) when the budget runs out.
 */
function findLink(
  upper: number[],
  lower: number[],
  edges: Edges,
  labels: Labels,
  component: number[],
  reaches: (from: number, to: number) => boolean,
  budget: Budget,
): { p: number; word: Word | undefined } | undefined {
  const cu = component[upper[0]!]!;
  const cl = component[lower[0]!]!;
  if (!reaches(upper[0]!, lower[0]!)) return undefined;
  for (const p of upper) {
    for (const q of lower) {
      if (!reaches(p, q)) continue;
      // (x, y, z): x loops in p's component, y walks from p to q, z loops in q's component.
      const key = (x: number, y: number, z: number) => `${x},${y},${z}`;
      const parent = new Map<string, { from: string; cls: number }>();
      const start = key(p, p, q);
      const goal = key(p, q, q);
      const queue: Array<[number, number, number]> = [[p, p, q]];
      parent.set(start, { from: '', cls: -1 });
      for (let head = 0; head < queue.length; head++) {
        const [x, y, z] = queue[head]!;
        for (const ex of edges[x]!) {
          if (component[ex.to] !== cu) continue;
          for (const ey of edges[y]!) {
            if (ey.to !== q && !reaches(ey.to, q)) continue;
            for (const ez of edges[z]!) {
              if (!budget.spend()) return { p, word: undefined };
              if (component[ez.to] !== cl) continue;
              const cls = readableClass(preference, labels[ex.to]!, labels[ey.to]!, labels[ez.to]!);
              if (cls < 0) continue;
              const next = key(ex.to, ey.to, ez.to);
              if (parent.has(next)) continue;
              parent.set(next, { from: key(x, y, z), cls });
              if (next === goal) {
                const word: number[] = [];
                for (let t = goal; t !== start; ) {
                  const step = parent.get(t)!;
                  word.unshift(step.cls);
                  t = step.from;
                }
                return { p, word };
              }
              queue.push([ex.to, ey.to, ez.to]);
            }
          }
        }
      }
    }
  }
  return undefined;
}
