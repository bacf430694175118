// `npm run summaries -- --redo`: forget every stored summary of the current SUMMARY_LANGUAGE and
// prompt version, so the crawler's queue makes them again with the model now configured. A change
// of model never does this by itself (issue 31: remaking summaries costs model calls, so it is the
// operator's decision). `npm run summaries` alone prints the queue's counts. Exit 2 on a usage error.

import { loadConfig } from '../config/load';
import { silentLogger } from '../logger';
import { openStore } from '../store';
import { PROMPT_VERSION } from '../summary/prompt';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const fail = (code: number, line: string): never => {
  process.stderr.write(`summaries: ${line}\n`);
  process.exit(code);
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--redo')) fail(2, 'usage: npm run summaries [-- --redo]');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    return fail(2, (err as Error).message.split('\n')[0]!);
  }
  const store = await openStore(config.databaseUrl, { logger: silentLogger(), rootDir: config.rootDir });
  try {
    const key = { language: config.summaryLanguage, promptVersion: PROMPT_VERSION };
    if (args.includes('--redo')) out(`dropped ${await store.dropSummaries(key)} summaries (language ${key.language}, prompt version ${key.promptVersion}); the crawler makes them again`);
    const c = await store.summaryCounts(key, new Date());
    out(`summaries (language ${key.language}, prompt version ${key.promptVersion}): ${c.ready} made, ${c.failed} failed, ${c.waiting} waiting`);
  } finally {
    await store.close();
  }
}

void main().catch((err: unknown) => fail(1, (err as Error).message));
