/**
 * Waits until `done()` holds, checking every 20 ms: for outcomes that no event announces (a file
 * removed, a job recorded by a background worker). It returns as soon as the outcome is there, so the
 * bound (`ms`, 30 s by default) is only a safety net for an outcome that never comes, generous enough
 * for a machine busy with other work: it never decides how fast something must be.
 */
export async function until(done: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
