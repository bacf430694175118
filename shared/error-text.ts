// An error as one line of text, where a text is wanted (a stored reason, a refusal): its message.
// A file-system error is named so that a permission problem says so (and whose), because "cannot be
// read" alone sends an operator looking for a missing file. Log lines take the error itself
// (`{ err }`), which the logger writes with its type, message and stack.

/** The message of an Error, else the value as text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** `permission denied (EACCES): user 1000 may not …`, or `<code>` for anything else. */
export function fileErrorText(err: unknown, what: string): string {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? 'error';
  if (code === 'EACCES' || code === 'EPERM') {
    const uid = typeof process.getuid === 'function' ? ` ${process.getuid()}` : '';
    return `permission denied (${code}): the user${uid} this process runs as may not ${what}`;
  }
  return code;
}
