// GET /health: liveness only, no key (spec). It does not touch the store, so a load balancer keeps
// routing to a process that can still explain a store outage with a JSON 500.

import type { RequestHandler } from 'express';
import { SERVICE_NAME } from '../service-info';

const BODY = JSON.stringify({ status: 'ok', service: SERVICE_NAME });

export const health: RequestHandler = (_req, res) => {
  res.type('application/json').send(BODY);
};
