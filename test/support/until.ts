/**
 * Waits until `done()` holds, checking every 20 ms, for at most `ms`: for outcomes that no event
 * announces (a file removed, a job recorded by a background worker). Fails the test past the bound.
 */
export async function until(done: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
