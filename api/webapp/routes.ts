// The reader's web app under /app/ (issue 29). Each group of pages is a file of its own built on the
// shared kit (kit.ts); this file only gathers their handlers for the rows of the one route table
// (api/create-app.ts), and serves the app's files.

import type { RequestHandler } from 'express';
import { feed, text } from '../http/answer';
import { accountRoutes, type AccountRoutes } from './account-routes';
import { CHANNEL_SCRIPT, CHANNEL_SCRIPT_FILE, ICON, ICON_FILE, PLAYER_SCRIPT, PLAYER_SCRIPT_FILE, STYLESHEET, STYLESHEET_FILE } from './assets';
import { channelRoutes, type ChannelRoutes } from './channel-routes';
import { homeRoutes, type HomeRoutes } from './follow-routes';
import { appKit, type WebAppDeps } from './kit';
import { searchRoute, type SearchPageDeps } from './search-routes';
import { subscriptionsRoutes, type SubscriptionsRoutes } from './subscriptions-routes';
import { videoRoutes, type VideoRoutes } from './video-routes';
import { defaultSummaryKey } from '../feed/summaries';

export type { WebAppDeps } from './kit';

export interface WebApp extends AccountRoutes, HomeRoutes, ChannelRoutes, VideoRoutes, SubscriptionsRoutes {
  search: RequestHandler;
  asset: RequestHandler;
}

/** The app's files by their hashed names: a year's caching, since a change is a new name. */
const assetFile = (type: string, body: Buffer): { fields: string[]; body: Buffer } => ({ fields: ['Cache-Control', 'public, max-age=31536000, immutable', 'Content-Type', type], body });
const ASSETS = new Map([
  [STYLESHEET_FILE, assetFile('text/css; charset=utf-8', STYLESHEET)],
  [ICON_FILE, assetFile('image/svg+xml', ICON)],
  [PLAYER_SCRIPT_FILE, assetFile('text/javascript; charset=utf-8', PLAYER_SCRIPT)],
  [CHANNEL_SCRIPT_FILE, assetFile('text/javascript; charset=utf-8', CHANNEL_SCRIPT)],
]);

// The API's fixed fields (nosniff among them) and the file's own; `feed` takes the list, so each answer gets a copy.
const asset: RequestHandler = (req, res) => {
  const file = ASSETS.get(String(req.params.file));
  if (file === undefined) text(res, 404, 'text/plain; charset=utf-8', 'not found');
  else feed(res, [...file.fields], file.body);
};

export function webApp(deps: WebAppDeps & { search: SearchPageDeps }): WebApp {
  const kit = appKit(deps);
  return { ...accountRoutes(kit), ...homeRoutes(kit), ...channelRoutes(kit), ...videoRoutes(kit, deps.summaryKey ?? defaultSummaryKey()), search: searchRoute(kit, deps.search), ...subscriptionsRoutes(kit), asset };
}
