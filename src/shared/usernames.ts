/**
 * A user name as QE keeps it (docs/product-rules.md#user-names): the form a Chinese input method
 * types (ｆｕｌｌ１２３, a full-width space) read as the ordinary characters (NFKC), and the spaces
 * around it dropped. The case is kept: Full123 and full123 are two names, as the import has always
 * stored them. One function for every way in — the import, an account added or edited, /qe/init,
 * the login — so that a name is found whatever form it was typed in.
 */
export function normaliseUsername(typed: string): string {
  return typed.normalize('NFKC').trim();
}

/** A body's `username`, normalised in place when it is a text (before validation: a full-width name is not refused). */
export function normaliseUsernameIn(body: unknown): void {
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { username?: unknown }).username === 'string') {
    const b = body as { username: string };
    b.username = normaliseUsername(b.username);
  }
}
