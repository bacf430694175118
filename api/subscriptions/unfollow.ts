// Taking one channel (or playlist, or unresolved handle) off a key's list: DELETE
// /subscriptions/<ref> and the web app's Unfollow button (api/webapp/follow-routes.ts) both do it
// here, with the same refusals (400 for a ref that names nothing, 404 for one not followed).

import { CHANNEL_ID } from '../../shared/ids';
import { normalizeHandle, parseHandle } from '../../shared/channel-ref';
import { isPlaylistId } from '../../shared/playlist-ref';
import type { SubscriptionStore } from '../../shared/store/types';
import { ApiError } from '../errors';
import type { FollowRecorder } from '../registration/follow-recorder';

/** Stops `keyId` following `raw` (a channel id, a playlist id or `@handle`); the ref as the store keys it. */
export async function unfollowRef(store: Pick<SubscriptionStore, 'unfollow'>, follows: FollowRecorder, keyId: string, raw: string, now: Date): Promise<string> {
  const handle = raw.startsWith('@') ? parseHandle(raw) : null;
  if (!CHANNEL_ID.test(raw) && !isPlaylistId(raw) && handle === null) throw new ApiError('invalidSubscription');
  const ref = handle !== null && handle.kind === 'handle' ? `@${normalizeHandle(handle.handle)}` : raw;
  if (!(await store.unfollow(keyId, ref, now))) throw new ApiError('subscriptionNotFound');
  // The next feed request through this process follows again at once (follow-recorder.ts).
  follows.forget(keyId, ref);
  return ref;
}
