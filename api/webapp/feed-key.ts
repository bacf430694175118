// The channel and playlist pages show feed URLs with the signed-in key in them (a feed reader cannot
// send a session), yet the service keeps only digests of its keys and the store only the key's
// digest. So at sign-in, where the key is in hand, it is sealed (AES-256-GCM) under a key derived
// from the session's random id and given back in a cookie of its own: the store never holds it, no
// process keeps it, and only a request carrying both this cookie and its session's id can open it.
// Whoever holds the session may read the feed URLs anyway, so the pair reveals nothing more.

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sha256 } from '../../shared/config/security';
import { cookieOf } from './security';
import type { SignedIn } from './kit';

export const FEED_KEY_COOKIE = 'tf_feed';

const INFO = 'transcript-feed/app feed key';

const keyOf = (sessionId: string): Buffer => Buffer.from(hkdfSync('sha256', sessionId, '', INFO, 32));

/** The API key sealed under the session's id: base64url of iv, tag and ciphertext. */
export function sealFeedKey(apiKey: string, sessionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionId), iv);
  const sealed = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The sealed key, when it opens under this session's id; null for anything else (another session's, tampered). */
export function openFeedKey(sealed: string, sessionId: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 29 || raw.length > 400) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionId), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The signed-in key itself, for its feed URLs: null when the cookie is missing or is not this session's key. */
export function feedKeyOf(req: IncomingMessage, signed: SignedIn): string | null {
  const sealed = cookieOf(req, FEED_KEY_COOKIE);
  const key = sealed === null ? null : openFeedKey(sealed, signed.id);
  // A key the file has since replaced under the same name is not this session's key.
  return key !== null && timingSafeEqual(sha256(key), signed.key.digest) ? key : null;
}
