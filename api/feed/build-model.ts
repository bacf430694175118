// Stored records → the feed model. The only place that knows how a store record maps to an entry.

import type { VideoRecord } from '../../shared/store/types';
import { FEED_TITLE_PREFIX, PUBLIC_VIDEO_HOST } from '../service-info';
import type { FeedModel } from './model';

/** Content of an entry whose video was given up as having no captions (state no_transcript). */
export const NO_TRANSCRIPT_NOTE = '<p>No transcript is available for this video.</p>';

export interface ModelInput {
  channelId: string;
  channelTitle: string | null;
  /** Newest first, as listFeedEntries returns them. */
  videos: readonly VideoRecord[];
  /** feedVersion: newest stored change. */
  updated: Date;
  selfUrl: string;
}

export function buildFeedModel(input: ModelInput): FeedModel {
  return {
    channelId: input.channelId,
    title: `${FEED_TITLE_PREFIX} - ${input.channelId}`,
    author: input.channelTitle?.trim() || input.channelId,
    updated: input.updated,
    link: `https://${PUBLIC_VIDEO_HOST}/channel/${input.channelId}`,
    selfUrl: input.selfUrl,
    entries: input.videos.map((v) => ({
      videoId: v.videoId,
      title: v.title,
      link: `https://${PUBLIC_VIDEO_HOST}/watch?v=${v.videoId}`,
      html: v.state === 'ready' && v.transcriptHtml !== null ? v.transcriptHtml : NO_TRANSCRIPT_NOTE,
      published: v.publishedAt,
      updated: v.publishedAt,
    })),
  };
}
