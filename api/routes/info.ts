// GET /info: what the service is and how to call it (spec, Info body). Requires a key.

import type { Handler } from '../http/rate-limit';
import { ENDPOINTS, EXAMPLES, SERVICE_NAME, USAGE, VERSION } from '../service-info';

const BODY = JSON.stringify({ service: SERVICE_NAME, version: VERSION, endpoints: ENDPOINTS, usage: USAGE, examples: EXAMPLES });

export const info: Handler = (_req, res) => {
  res.type('application/json').send(BODY);
};
