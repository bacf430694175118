// The reading pages: a channel's videos, and one video's transcript beside the player.

import type { RequestHandler } from 'express';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { channelBody, transcriptBody } from './reading-pages';

export interface ReadingRoutes {
  channel: RequestHandler;
  video: RequestHandler;
}

export function readingRoutes(kit: AppKit): ReadingRoutes {
  const { store } = kit.deps;

  const channel = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const [record, videos] = await Promise.all([store.getChannel(id), store.listFeedEntries(id, 50)]);
    const ctx = kit.context(req, signed);
    kit.send(res, record === null ? 404 : 200, renderPage(ctx, record?.title ?? id, channelBody(ctx.words, ctx.locale, videos)));
  });

  const video = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const [[record], transcripts] = await Promise.all([store.getVideos([id]), store.getTranscripts([id])]);
    const ctx = kit.context(req, signed);
    if (record === undefined) return kit.send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const transcript = transcripts.find((t) => t.language === record.language) ?? transcripts[0] ?? null;
    kit.send(res, 200, renderPage(ctx, record.title, transcriptBody(ctx.words, ctx.locale, record, transcript, kit.embedBase)), kit.embedOrigin);
  });

  return { channel, video };
}
