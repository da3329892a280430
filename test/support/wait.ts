// Polling for a condition another process brings about (a statement becoming active on the server).

/** Checks every `everyMs` up to `tries` times; true once the check holds, false if it never did. */
export async function waitUntil(check: () => Promise<boolean>, tries = 100, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}
