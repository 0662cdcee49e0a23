/**
 * Test support: runs `run` on each item one after another (the next starts when the previous
 * has settled) and gives the results in order. Two such chains side by side run two tools'
 * steps concurrently while each tool's own steps keep their order (terraform locks a
 * working directory's state, and a later step reads what an earlier one wrote).
 */
export async function inTurn<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await run(item));
  return results;
}
