/**
 * Runs `task` over `items` with at most `limit` in flight, keeping results in input order.
 * Every task settles: one failure does not stop the others.
 *
 * @example
 * const results = await mapSettled(orgs, 4, (org) => fetchStatements(org.OrganisationId));
 */
export async function mapSettled<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<Array<PromiseSettledResult<R>>> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('concurrency must be a positive integer');
  const results: Array<PromiseSettledResult<R>> = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await task(items[index]!, index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
