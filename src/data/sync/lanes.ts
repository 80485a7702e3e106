/**
 * Run `work` over `items` with at most `limit` at once, for the pulls and reconciles of several
 * entities (issue #11.3). Unlike a plain Promise.all over lanes: once one result `isStop`s or one
 * call throws, no lane starts another item; and it always waits for every lane to finish before it
 * returns or rethrows, so no request of a cycle outlives the cycle. Returns the first stop, or null.
 */
export async function runLanes<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  isStop: (result: R) => boolean,
): Promise<R | null> {
  let next = 0;
  let stop: R | null = null;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < items.length && stop === null && failure === null) {
      const item = items[next++];
      try {
        const result = await work(item);
        if (isStop(result) && stop === null) stop = result;
      } catch (error) {
        if (!failure) failure = { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return stop;
}
