// Language codes as the platform and readers write them (`en`, `en-GB`, `pt-BR`, `zh-Hans`).

/**
 * A language code as the platform writes them, in any case: `de`, `pt-BR`, `zh-Hans`, `es-419`,
 * `sr-Latn-RS`. One rule for both places a code comes in from outside: the feed's `lang`
 * parameter and the TRANSCRIPT_LANGUAGES setting, so a code one accepts the other does too.
 */
const LANGUAGE_CODE = /^[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,2}$/i;

export function isLanguageCode(code: string): boolean {
  return LANGUAGE_CODE.test(code);
}

/** Whether text in `code` serves a reader of `lang`: `en` is served by `en`, `en-US`, `en-GB`. */
export function speaks(code: string, lang: string): boolean {
  const c = code.toLowerCase();
  const l = lang.toLowerCase();
  return c === l || c.startsWith(`${l}-`);
}
