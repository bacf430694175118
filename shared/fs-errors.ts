// How a file-system error is named in a log line or a refusal: a permission problem says so (and
// whose), because "cannot be read" alone sends an operator looking for a missing file.

/** `permission denied (EACCES): user 1000 may not …`, or `<code>` for anything else. */
export function fileErrorText(err: unknown, what: string): string {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? 'error';
  if (code === 'EACCES' || code === 'EPERM') {
    const uid = typeof process.getuid === 'function' ? ` ${process.getuid()}` : '';
    return `permission denied (${code}): the user${uid} this process runs as may not ${what}`;
  }
  return code;
}
