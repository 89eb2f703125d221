// Polling helpers for start-up: wait until a check passes, with a deadline and a useful message.

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Calls `check` until it returns true or `timeoutMs` passes; then throws naming `what`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(intervalMs);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${reason}`);
}

/** GET a URL and report whether it answered 2xx, within a short timeout. */
export async function isHttpOk(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Whether anything answers HTTP at a URL, whatever the status. */
export async function isHttpAnswering(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
