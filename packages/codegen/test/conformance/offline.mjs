// Keeps a run off the network. The suite references remote schemas (its own test server on
// localhost:1234, the meta-schemas on json-schema.org) and the generator's loader would
// fetch them: answers would then depend on the machine's network, and the expectations
// file could not hold on every machine.

/** Runs `task` with the global `fetch` refusing every request, then puts `fetch` back. */
export async function offline(task) {
  const original = globalThis.fetch;
  globalThis.fetch = async (url) => {
    throw new Error(`the conformance harness does not fetch remote schemas (${String(url)})`);
  };
  try {
    return await task();
  } finally {
    globalThis.fetch = original;
  }
}
