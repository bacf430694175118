// The container image's HEALTHCHECK: `node dist/shared/cli/healthcheck.js` asks the API's /health on
// the port the API reads (PORT, from the environment or the settings file, as the API does);
// `--crawler` asks the crawler's metrics listener (CRAWLER_METRICS_PORT) instead, the one HTTP
// surface a crawler has. Exit 0 healthy, 1 not, with one line saying why (podman/docker keep it).

import { loadConfig } from '../config/load';

const TIMEOUT_MS = 4000;

async function main(): Promise<number> {
  const crawler = process.argv.includes('--crawler');
  let port: number | null;
  try {
    const config = loadConfig();
    port = crawler ? config.crawlerMetricsPort : config.port;
  } catch (err) {
    process.stdout.write(`unhealthy: ${(err as Error).message.split('\n')[0]}\n`);
    return 1;
  }
  const what = crawler ? 'CRAWLER_METRICS_PORT' : 'PORT';
  if (port === null || port === 0) {
    process.stdout.write(`unhealthy: ${what} is ${port === null ? 'not set' : '0 (a port the system picks)'}; a health check needs a fixed port\n`);
    return 1;
  }
  const url = `http://127.0.0.1:${port}${crawler ? '/metrics' : '/health'}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.arrayBuffer();
    process.stdout.write(`${res.ok ? 'healthy' : 'unhealthy'}: ${url} answered ${res.status}\n`);
    return res.ok ? 0 : 1;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    process.stdout.write(`unhealthy: ${url} did not answer (${cause})\n`);
    return 1;
  }
}

void main().then((code) => process.exit(code));
