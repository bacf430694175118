// One access-log line per request (category api.http): method, path without api_key, status, ms.

import type { RequestHandler } from 'express';
import { categoryLogger, type Logger } from '../../shared/logger';
import { withoutApiKey } from './strip-api-key';

export function accessLog(root: Logger): RequestHandler {
  const log = categoryLogger(root, 'api.http');
  return (req, res, next) => {
    if (!log.isLevelEnabled('info')) return next();
    const start = process.hrtime.bigint();
    res.once('close', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100;
      const status = res.writableFinished ? res.statusCode : 0;
      const path = withoutApiKey(req.originalUrl);
      log.info({ method: req.method, path, status, ms }, `${req.method} ${path} ${status || 'aborted'} ${ms}ms`);
    });
    next();
  };
}
