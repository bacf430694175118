// What every request goes through first, as one Express layer instead of four: the access-log
// start, the fixed security and CORS headers, and the CORS preflight answer.

import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/logger';
import { accessLogger } from './access-log';
import { corsPolicy, staticHeaders } from './security-headers';

export function frontDoor(logger: Logger): RequestHandler {
  const startLog = accessLogger(logger);
  const headers = staticHeaders();
  return (req, res, next) => {
    startLog(res);
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
    if (req.method === 'OPTIONS') corsPolicy(req, res, next);
    else next();
  };
}
