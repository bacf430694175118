// `npm run mcp` as a desktop assistant starts it: the compiled stdio entry as a child process, driven
// by the SDK's own Client over its stdin/stdout, on the store the service uses (a SQLite file, and
// the MongoDB emulator), with the key file the API reads. Standard output carries only the
// protocol; a disabled key is refused before anything is served; closing stdin ends it.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openStore } from '../../shared/store';
import { silentLogger } from '../../shared/logger';
import { DEFAULT_KEYS, DISABLED_KEY, KEY, securityYaml } from '../api/support';
import { ensureBuilt, ROOT } from '../support/processes';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { tempStore, type TempStore } from '../support/temp-store';
import { LONG_VIDEO, seedArchive } from './seed';

const ENTRY = path.join(ROOT, 'dist/api/mcp/stdio.js');

function transport(env: Record<string, string>, key: string): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [ENTRY, '--key', key], env: { PATH: process.env.PATH ?? '', ...env }, cwd: env.CWD ?? ROOT, stderr: 'pipe' });
}

for (const kind of ['sqlite', 'mongodb'] as const) {
  describe(`MCP over stdio on ${kind === 'sqlite' ? 'a SQLite store' : 'mongodb (emulator or MONGODB_URI)'}`, function () {
    this.timeout(60_000);
    let ts: TempStore;
    let env: Record<string, string>;
    let dropMongo: (() => Promise<void>) | null = null;

    before(async () => {
      ensureBuilt();
      ts = await tempStore('tf-mcp-stdio-');
      let databaseUrl = `sqlite:${path.join(ts.dir, 'store.db')}`;
      if (kind === 'mongodb') {
        const db = await mongoTestDatabase();
        databaseUrl = db.url;
        dropMongo = db.drop;
      }
      const store = await openStore(databaseUrl, { logger: silentLogger() });
      await seedArchive(store);
      await store.close();
      writeFileSync(path.join(ts.dir, 'security.yaml'), securityYaml(DEFAULT_KEYS));
      env = { DATABASE_URL: databaseUrl, SECURITY_CONFIG: path.join(ts.dir, 'security.yaml'), LOG_LEVEL: 'info' };
    });
    after(async () => {
      await dropMongo?.();
      await ts?.cleanup();
    });

    it('answers every tool from the store, and ends when its stdin closes', async () => {
      const t = transport(env, KEY);
      const errors: string[] = [];
      t.stderr?.on('data', (b: Buffer) => errors.push(b.toString()));
      const client = new Client({ name: 'desktop-assistant', version: '1.0.0' });
      await client.connect(t);
      expect((await client.listTools()).tools).to.have.length(5);
      const hits = (await client.callTool({ name: 'search_transcripts', arguments: { query: 'heat pump' } })).structuredContent as { hits: { video_id: string }[] };
      expect(hits.hits.map((h) => h.video_id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000003']);
      const page = (await client.callTool({ name: 'get_transcript', arguments: { video_id: LONG_VIDEO } })).structuredContent as { next_cursor?: string };
      expect(page.next_cursor).to.be.a('string');
      const followed = (await client.callTool({ name: 'follow_channel', arguments: { channel: 'UCstdio00000000000000000' } })).structuredContent as { id: string };
      expect(followed.id).to.equal('UCstdio00000000000000000');
      const subs = (await client.callTool({ name: 'list_subscriptions', arguments: {} })).structuredContent as { subscriptions: { id: string }[] };
      expect(subs.subscriptions.map((s) => s.id)).to.include('UCstdio00000000000000000');
      const pid = t.pid!;
      await client.close();
      for (let i = 0; i < 200; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(() => process.kill(pid, 0), 'the process ended with its stdin').to.throw();
      expect(errors.join(''), 'logs go to stderr as JSON lines').to.contain('"MCP server on stdio"');
      expect(errors.join('')).to.not.contain(KEY);
    });

    it('refuses a disabled key (and a missing one) before serving, with its reason on stderr and nothing on stdout', () => {
      const run = (args: string[]) => spawnSync(process.execPath, [ENTRY, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: ROOT, input: '', encoding: 'utf8', timeout: 30_000 });
      const disabled = run(['--key', DISABLED_KEY]);
      expect(disabled.status).to.equal(1);
      expect(disabled.stdout).to.equal('');
      expect(disabled.stderr).to.match(/^mcp: the key is not in the key file, or it is disabled/m);
      expect(disabled.stderr).to.not.contain(DISABLED_KEY);
      const missing = run([]);
      expect(missing.status).to.equal(2);
      expect(missing.stdout).to.equal('');
      expect(missing.stderr).to.match(/usage: npm run --silent mcp -- --key/);
    });
  });
}
