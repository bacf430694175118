// What the store contract's files share: one fixed clock (minute-aligned, so rate windows are
// predictable; nothing sleeps) and a stored video of channel UC_a.

import { videoRecord } from '../support/factories';
import type { VideoRecord } from '../../shared/store';

export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const at = (ms: number): Date => new Date(T0 + ms);
export const MIN = 60_000;

/** A stored video of channel UC_a at T0; `overrides` names it and sets what the case is about. */
export const video = (overrides: Partial<VideoRecord> & { videoId: string }): VideoRecord =>
  videoRecord({ channelId: 'UC_a', publishedAt: at(0), fetchedAt: at(0), ...overrides });
