// `npm run --silent mcp -- --key <key>` (or MCP_API_KEY): the MCP server on stdin/stdout, for
// desktop assistants that start a command. It opens the store the running service uses (the same
// settings: DATABASE_URL, CONFIG_FILE, SECURITY_CONFIG), acts for one configured key, and ends when
// stdin closes. Standard output carries nothing but the protocol: logs go to stderr, as JSON lines.

import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../../shared/config/load';
import { categoryLogger, createLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import { matchKey } from '../http/keyed';
import { KeyRing } from '../key-ring';
import { createMcpServer } from './tools';

const fail = (code: number, line: string): never => {
  process.stderr.write(`mcp: ${line}\n`);
  process.exit(code);
};

function keyArg(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--key' || a.startsWith('--key='));
  if (at < 0) return undefined;
  return argv[at]!.includes('=') ? argv[at]!.slice('--key='.length) : argv[at + 1];
}

async function main(): Promise<void> {
  const key = keyArg(process.argv.slice(2)) ?? process.env.MCP_API_KEY;
  if (key === undefined || key === '') fail(2, 'usage: npm run --silent mcp -- --key <api key>   (or set MCP_API_KEY)');
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(78, (err as Error).message.split('\n')[0]!);
  }
  const logger = createLogger({ level: config!.logLevel, format: 'json', stream: process.stderr, base: { process: 'mcp' } });
  const ring = KeyRing.open(path.resolve(config!.rootDir, config!.securityConfig), { defaultRateLimit: config!.defaultRateLimit, logger });
  if (matchKey(key!, ring.keys) === null) {
    ring.close();
    fail(1, 'the key is not in the key file, or it is disabled (enabled: false)');
  }
  const store = await openStore(config!.databaseUrl, { logger: categoryLogger(logger, 'store'), rootDir: config!.rootDir });
  const server = createMcpServer({
    store, keyId: matchKey(key!, ring.keys)!.keyId, clock: () => new Date(), logger,
    // A key disabled or removed while the assistant runs stops answering at its next call.
    stillAllowed: () => matchKey(key!, ring.keys) !== null,
  });
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    ring.close();
    await server.close().catch(() => undefined);
    await store.close();
    process.exit(0);
  };
  transport.onclose = () => void close();
  process.stdin.once('end', () => void close());
  await server.connect(transport);
  categoryLogger(logger, 'api.mcp').info({ store: store.kind }, 'MCP server on stdio');
}

main().catch((err: unknown) => fail(1, (err as Error).message.split('\n')[0] ?? 'failed'));
