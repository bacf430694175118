// The transcript page: one video's transcript beside the player (a channel's page: channel-routes.ts).

import type { RequestHandler } from 'express';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { transcriptBody } from './reading-pages';

export interface ReadingRoutes {
  video: RequestHandler;
}

export function readingRoutes(kit: AppKit): ReadingRoutes {
  const { store } = kit.deps;

  const video = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const [[record], transcripts] = await Promise.all([store.getVideos([id]), store.getTranscripts([id])]);
    const ctx = kit.context(req, signed);
    if (record === undefined) return kit.send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const transcript = transcripts.find((t) => t.language === record.language) ?? transcripts[0] ?? null;
    kit.send(res, 200, renderPage(ctx, record.title, transcriptBody(ctx.words, ctx.locale, record, transcript, kit.embedBase)), kit.embedOrigin);
  });

  return { video };
}
