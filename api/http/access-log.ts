// One access-log line per request (category api.http): method, path without api_key, status, ms.
// Hot path: one shared 'close' listener reading what it needs from the response itself, so a
// request allocates no closure and no once-wrapper; the message is short because the fields
// already carry method, path, status and time.

import type { Request, Response } from 'express';
import { categoryLogger, type Logger } from '../../shared/logger';
import { withoutApiKey } from './strip-api-key';

const START = Symbol('accessLogStart');
const LOG = Symbol('accessLog');

type Logged = Response & { [START]?: bigint; [LOG]?: Logger };

function onClose(this: Logged): void {
  const log = this[LOG]!;
  const ms = Math.round(Number(process.hrtime.bigint() - this[START]!) / 1e4) / 100;
  const status = this.writableFinished ? this.statusCode : 0;
  const req = this.req as Request;
  log.info({ method: req.method, path: withoutApiKey(req.originalUrl), status, ms }, status === 0 ? 'aborted' : 'request');
}

/** Returns what starts one request's line; it logs when the response closes (finished or cut). */
export function accessLogger(root: Logger): (res: Response) => void {
  const log = categoryLogger(root, 'api.http');
  return (res) => {
    if (!log.isLevelEnabled('info')) return;
    const r = res as Logged;
    r[START] = process.hrtime.bigint();
    r[LOG] = log;
    r.on('close', onClose);
  };
}
