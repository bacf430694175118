// `npm run fake-platform [-- --port 8090]`: the fake platform with demo channels, for trying the
// service by hand and for end-to-end runs that drive it through /__fake/ from another process.

import { makeChannel } from './data';
import { startFakePlatform } from './server';

function portArg(argv: string[]): number {
  const at = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (at < 0) return 0;
  const raw = argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`fake platform: --port needs a number 0-65535, got ${String(raw)}`);
    process.exit(2);
  }
  return port;
}

async function main(): Promise<void> {
  const fake = await startFakePlatform({
    port: portArg(process.argv.slice(2)),
    channels: [
      makeChannel({ handle: 'demo', title: 'Demo Channel', count: 60, shortsRatio: 0.1 }),
      makeChannel({ handle: 'tiny', title: 'Tiny Channel', count: 3, captionsMix: { manual: 1 } }),
    ],
  });
  console.log(`fake platform listening on ${fake.url}`);
  for (const channel of fake.channels()) {
    console.log(`  @${channel.handle}  ${channel.channelId}  ${channel.videos.length} videos`);
  }
  console.log(`\nPLATFORM_BASE_URL=${fake.url}`);
  console.log(`control: ${fake.url}/__fake/counters, POST ${fake.url}/__fake/scenario, POST ${fake.url}/__fake/upload`);

  const stop = (signal: string) => {
    console.log(`\nfake platform: ${signal}, stopping`);
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('fake platform failed to start:', error);
  process.exit(1);
});
