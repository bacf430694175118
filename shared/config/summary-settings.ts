// The summary settings (issue 31, docs/summaries.md): off until SUMMARY_API_URL names the
// operator's own OpenAI-compatible endpoint, so nothing leaves the machine unless asked to.

import { isLanguageCode } from '../transcript/languages';
import { fail, parseInteger, setting } from './setting-kit';

/** An http(s) base URL without a trailing slash; empty = summaries off. */
function parseApiUrl(raw: string): string | null {
  const v = raw.trim();
  if (v === '') return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    // Not echoed: the URL may carry credentials.
    return fail('must be an OpenAI-compatible base URL like http://localhost:11434/v1');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(`must use http: or https:, got "${u.protocol}"`);
  return v.replace(/\/+$/, '');
}

/** `transcript` (the transcript's own language) or a language code. */
function parseSummaryLanguage(raw: string): string {
  const v = raw.trim();
  if (v === 'transcript' || isLanguageCode(v)) return v;
  return fail(`must be "transcript" or a language code like "en", got "${raw}"`);
}

export const SUMMARY_SETTINGS = {
  summaryApiUrl: setting({ name: 'SUMMARY_API_URL', default: '', secret: false, help: 'OpenAI-compatible base URL the crawler asks for summaries (POST <url>/chat/completions), e.g. http://localhost:11434/v1 (Ollama) or http://localhost:8080/v1 (llama.cpp); empty = summaries off', parse: parseApiUrl }),
  summaryApiKey: setting({ name: 'SUMMARY_API_KEY', default: '', secret: true, help: 'bearer key sent to SUMMARY_API_URL; empty = none (local servers need none)', parse: (raw: string) => (raw === '' ? null : raw) }),
  summaryModel: setting({ name: 'SUMMARY_MODEL', default: 'llama3.1', secret: false, help: 'the model name sent with every summary request', parse: (raw: string) => (raw.trim() === '' ? fail('must name a model') : raw.trim()) }),
  summaryContextTokens: setting({ name: 'SUMMARY_CONTEXT_TOKENS', default: '8192', secret: false, help: 'the model\'s context in tokens (one token counted per 4 characters); longer transcripts are summarised by chapters or windows, then combined', parse: parseInteger(512, 10000000) }),
  summaryTokensPerDay: setting({ name: 'SUMMARY_TOKENS_PER_DAY', default: '0', secret: false, help: 'tokens (in and out) the summaries may spend in a UTC day, all crawlers together; 0 = no cap', parse: parseInteger(0, 1000000000000) }),
  summaryVideosPerDay: setting({ name: 'SUMMARY_VIDEOS_PER_DAY', default: '0', secret: false, help: 'videos summarised (attempted) in a UTC day, all crawlers together; 0 = no cap', parse: parseInteger(0, 100000000) }),
  summaryTimeoutMs: setting({ name: 'SUMMARY_TIMEOUT_MS', default: '120000', secret: false, help: 'the longest one model request may take, its whole answer included', parse: parseInteger(100, 3600000) }),
  summaryLanguage: setting({ name: 'SUMMARY_LANGUAGE', default: 'transcript', secret: false, help: 'language of the summaries: transcript (the transcript\'s own) or a language code', parse: parseSummaryLanguage }),
} as const;
