/**
 * For long work done in slices on the event loop (an import's checks, its batched inserts on
 * SQLite, whose driver answers within the same tick): a pause that lets other requests in
 * whenever this work has held the loop `sliceMs` since its last pause — by time rather than by a
 * row count, so a slow row or a busy machine does not stretch a slice.
 */
export function eventLoopTurns(sliceMs = 10): EventLoopTurns {
  let since = performance.now();
  const due = () => performance.now() - since >= sliceMs;
  const pause = async () => {
    if (!due()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  return Object.assign(pause, { due });
}

/** The pause; `due()` says whether the next one lets the loop turn (work to hand on first, as a writer's buffer). */
export interface EventLoopTurns {
  (): Promise<void>;
  due(): boolean;
}
