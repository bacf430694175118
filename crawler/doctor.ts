// `npm run doctor`: asks the configured platform, through the configured proxies and as the crawler
// would, about one known video (PLATFORM_CHECK_VIDEO) with every player client the crawler knows,
// and prints one row per client and a verdict. Exit 0 when some client can fetch transcripts, 1 when
// none can, 2 when the configuration itself is wrong. Run it when transcripts stop arriving: every
// maintained client had to change its player clients several times in 2026 (docs/crawler.md).

import { loadConfig, type Config } from '../shared/config/load';
import { createLogger } from '../shared/logger';
import { createPlatformClient } from '../shared/platform';
import { reportTable } from '../shared/platform/platform-check';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`doctor: ${(err as Error).message}\n`);
    process.exit(2);
  }
  // Warnings only (a proxy that cannot be reached); the table is the output.
  const logger = createLogger({ level: 'warning', format: config.logFormat, stream: process.stderr });
  const platform = createPlatformClient(config, logger);
  const video = process.argv[2] ?? config.platformCheckVideo;
  process.stdout.write(`asking ${config.platformBaseUrl} about ${video} with every known player client, one after another…\n`);
  const report = await platform.checkPlatform(video);
  process.stdout.write(`${reportTable(report)}\n`);
  process.exit(report.ok ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`doctor: ${(err as Error).message}\n`);
  process.exit(2);
});
