// Language codes as the platform and readers write them (`en`, `en-GB`, `pt-BR`, `zh-Hans`).

/** Whether text in `code` serves a reader of `lang`: `en` is served by `en`, `en-US`, `en-GB`. */
export function speaks(code: string, lang: string): boolean {
  const c = code.toLowerCase();
  const l = lang.toLowerCase();
  return c === l || c.startsWith(`${l}-`);
}
