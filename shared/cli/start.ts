// `npm start`: both processes of ecosystem.config.js in the foreground under PM2, as `pm2-runtime`
// runs them (PM2 lives in this process, so no daemon stays behind), every log line of both on this
// terminal. Unlike pm2-runtime, a process that refuses to start (START_REFUSED_EXIT_CODE: a bad
// setting, a port in use) ends the whole start with exit code 1, instead of the crawler running on
// behind a dead API. SIGINT (Ctrl-C) or SIGTERM stops both processes and exits 0.
//
// The processes log JSON lines (PM2's log files keep them). On a terminal (standard output a TTY and
// no LOG_FORMAT given) this prints them in the readable form `npm run logs:text` gives, the start-up
// configuration as a short `NAME = value` block; piped, or with LOG_FORMAT set, as they are.

import path from 'node:path';
import pm2 from 'pm2';
import { START_REFUSED_EXIT_CODE } from '../bootstrap';
import { logTextFormatter } from '../log-text';

const ECOSYSTEM = path.resolve(__dirname, '../../../ecosystem.config.js');

/** What PM2's bus carries: a log line (`data`) or a process event, with the app it came from. */
interface BusPacket {
  data?: unknown;
  event?: string;
  process: { name?: string; exit_code?: number };
}

const say = (line: string): void => void process.stderr.write(`transcript-feed: ${line}\n`);

/** For a person at a terminal: each app's JSON lines as text, a line cut across two packets joined first. */
function readableOut(): (p: BusPacket) => void {
  const format = logTextFormatter({ colorize: true });
  const partial = new Map<string, string>();
  return (p) => {
    const app = p.process.name ?? '';
    const text = (partial.get(app) ?? '') + String(p.data);
    const cut = text.lastIndexOf('\n');
    partial.set(app, text.slice(cut + 1));
    for (const line of text.slice(0, cut + 1).split('\n')) if (line.trim() !== '') process.stdout.write(format(line));
  };
}
const readable = process.stdout.isTTY === true && (process.env.LOG_FORMAT ?? '') === '';

let ending = false;
function end(code: number): void {
  if (ending) return;
  ending = true;
  // PM2's in-process daemon may itself call process.exit(0) while it is killed, before the callback
  // below runs; the 'exit' listener keeps the code this start ends with whichever exit comes first.
  process.on('exit', () => {
    process.exitCode = code;
  });
  pm2.killDaemon(() => process.exit(code));
}

pm2.connect(true, (err) => {
  if (err) {
    say(`cannot start PM2 (${err.message})`);
    process.exit(1);
  }
  process.on('SIGINT', () => end(0));
  process.on('SIGTERM', () => end(0));
  pm2.launchBus((busErr, bus: { on(event: string, listener: (packet: BusPacket) => void): void }) => {
    if (busErr) {
      say(`cannot read PM2's logs (${busErr.message})`);
      end(1);
      return;
    }
    bus.on('log:out', readable ? readableOut() : (p) => void process.stdout.write(String(p.data)));
    bus.on('log:err', (p) => void process.stderr.write(String(p.data)));
    bus.on('process:event', (p) => {
      if (p.event !== 'exit' || p.process.exit_code !== START_REFUSED_EXIT_CODE) return;
      say(`the ${p.process.name ?? 'process'} cannot start (the line above says why); stopping everything`);
      end(1);
    });
    pm2.start(ECOSYSTEM, (startErr) => {
      if (!startErr) return;
      say(`cannot start ${ECOSYSTEM} (${startErr.message})`);
      end(1);
    });
  });
});
