// The two date forms the spec fixes: Atom's "YYYY-MM-DDThh:mm:ss+00:00" and RSS's
// "Ddd, DD Mon YYYY hh:mm:ss +0000". Always UTC, whole seconds.

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

export function atomDate(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

export function rssDate(d: Date): string {
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${time} +0000`;
}
