// A request URL without its api_key parameter(s): what the access log records and what the feed's
// rel="self" link shows. Names are compared after decoding, so `api%5Fkey=` is caught too.

function decodedName(pair: string): string {
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

export function withoutApiKey(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // Cheap exit for the common case; the check is on the raw text, the removal on decoded names.
  const query = url.slice(q + 1);
  if (!/api(?:_|%5f)key/i.test(query)) return url;
  const kept = query.split('&').filter((pair) => decodedName(pair) !== 'api_key');
  return kept.length === 0 ? url.slice(0, q) : `${url.slice(0, q)}?${kept.join('&')}`;
}
