/**
 * Gathers calls made in the same turn of the event loop into one call of `run` per key (e.g. per
 * organisation): many concurrent jobs then share one statement and one round trip instead of one each.
 * `run` answers one result per item, in order; when it throws, every gathered call rejects.
 */
export function coalescer<T, R>(run: (key: string, items: T[]) => Promise<R[]>) {
  let queue: { key: string; item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    const byKey = new Map<string, typeof batch>();
    for (const entry of batch) {
      const group = byKey.get(entry.key);
      if (group) group.push(entry);
      else byKey.set(entry.key, [entry]);
    }
    for (const [key, entries] of byKey) {
      run(
        key,
        entries.map((e) => e.item),
      ).then(
        (results) => {
          entries.forEach((e, i) => {
            e.resolve(results[i] as R);
          });
        },
        (err: unknown) => {
          for (const e of entries) e.reject(err);
        },
      );
    }
  };
  return (key: string, item: T): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      queue.push({ key, item, resolve, reject });
      if (queue.length === 1) setImmediate(flush);
    });
}
