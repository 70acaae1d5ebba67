/**
 * For long work done in slices on the event loop (an import's checks, its batched inserts on
 * SQLite, whose driver answers within the same tick): a pause that lets other requests in
 * whenever this work has held the loop `sliceMs` since its last pause — by time rather than by a
 * row count, so a slow row or a busy machine does not stretch a slice.
 */
export function eventLoopTurns(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
