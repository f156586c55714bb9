// Recognises a unique-constraint violation on either database and names the column, so services can answer 409 after a
// race; and a foreign-key violation, a row referred to that went away meanwhile.

/** The column whose unique constraint the error violates, or undefined when the error is something else. */
export function uniqueViolation(error: unknown): string | undefined {
  const e = error as { code?: string; message?: string; detail?: string };
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    // "UNIQUE constraint failed: players.username_key"
    return /UNIQUE constraint failed: \w+\.(\w+)/.exec(e.message ?? '')?.[1];
  }
  if (e?.code === '23505') {
    // detail: "Key (username_key)=(ada) already exists."
    return /Key \((\w+)\)=/.exec(e.detail ?? '')?.[1] ?? 'unknown';
  }
  return undefined;
}

/**
 * Whether the error is a foreign-key violation: a row the statement refers to was deleted after the request read it.
 * Only players are ever deleted while requests run (a purge, a guest merged into an account at login), so the error
 * handler answers it as the credential's player being gone.
 */
export function foreignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
