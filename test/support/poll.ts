// The one way tests wait for something that happens on its own time (a process starting, a loop
// reaching a state): check, and check again shortly, until it holds or the deadline passes. The
// deadline only bounds a failure; a test never waits for a fixed time.

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves once `check` is true; fails after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  await waitFor(what, async () => ((await check()) ? true : undefined), timeoutMs);
}
