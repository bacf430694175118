// The playlist id forms the service accepts, written once (docs/crawler.md §2b), and the one
// playlist URL form. Only playlists with a fixed list behind them: a creator's playlist (`PL`), an
// album (`OLAK5uy_`), a channel's uploads (`UU`, and its `UULF`/`UUSH`/`UULV`… kinds) and a
// channel's favourites (`FL`). Mixes (`RD…`, endless and made per viewer) and the signed-in
// viewer's own lists (`WL`, `LL`, `LM`) are refused: no feed can be built from them without a login.

/** `PL` + 10–64, `OLAK5uy_` + 10–64, `UU` + 22, `UU` + a kind + 22, `FL` + 22 (letters, digits, `_`, `-`). */
export const PLAYLIST_ID = /^(?:PL[A-Za-z0-9_-]{10,64}|OLAK5uy_[A-Za-z0-9_-]{10,64}|UU(?:LF|SH|LV|LP|MO|MF|MV|MS)?[A-Za-z0-9_-]{22}|FL[A-Za-z0-9_-]{22})$/;

export const isPlaylistId = (id: string): boolean => PLAYLIST_ID.test(id);

/**
 * Matched as text, like channel URLs: `https://www.youtube.com/playlist?list=<id>` or the same
 * without `www.`; scheme and host compare case-insensitively, the rest exactly; no other query
 * parameter, fragment, port or credentials.
 */
const PLAYLIST_URL = /^https:\/\/(?:www\.)?youtube\.com(\/playlist\?list=([^&#]*))$/i;

/** The playlist id of an accepted URL, or null. */
export function parsePlaylistUrl(raw: string): string | null {
  const m = PLAYLIST_URL.exec(raw);
  if (!m || !m[1]!.startsWith('/playlist?list=')) return null;
  const id = m[2]!;
  return isPlaylistId(id) ? id : null;
}
