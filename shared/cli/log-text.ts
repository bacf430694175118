// `npm run logs:text < logs/api.out.log`: JSON log lines on standard input → the readable form on
// standard output, through the same formatter `npm start` uses on a terminal (shared/log-text.ts).
// Lines that are not JSON pass through as they are.

import { createInterface } from 'node:readline';
import { logTextFormatter } from '../log-text';

const format = logTextFormatter({ colorize: process.stdout.isTTY === true });
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() !== '') process.stdout.write(format(line));
});
