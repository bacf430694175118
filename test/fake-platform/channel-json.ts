// Channel-level parts of a browse answer (and of the handle page's ytInitialData): the tabs, the
// page header, `metadata.channelMetadataRenderer` and `microformat.microformatDataRenderer`, in the
// shapes of browse-videos-tab-first-page.json / browse-channel-home.json. Links use the real host,
// as the real answers do.

import type { FakeChannelSpec } from './types';
import { responseContext, shortViews, trackingParams } from './texts';

export const WEB_VERSION = '2.20260708.00.00';

/** Tab params as the real tabs carry them (Videos is the one the crawler asks for). */
export const TAB_PARAMS = {
  Home: 'EghmZWF0dXJlZPIGBAoCMgA%3D',
  Videos: 'EgZ2aWRlb3PyBgQKAjoA',
  Shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D',
  Live: 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D',
  Playlists: 'EglwbGF5bGlzdHPyBgQKAkIA',
} as const;

export type TabName = keyof typeof TAB_PARAMS;

const TAB_PATHS: Record<TabName, string> = {
  Home: 'featured',
  Videos: 'videos',
  Shorts: 'shorts',
  Live: 'streams',
  Playlists: 'playlists',
};

/** Which tab a browse `params` value names (clients send it URL-encoded or not). */
export function tabForParams(params: string | undefined): TabName | null {
  if (params === undefined) return 'Home';
  const wanted = decodeURIComponent(params);
  for (const [name, value] of Object.entries(TAB_PARAMS) as [TabName, string][]) {
    if (decodeURIComponent(value) === wanted) return name;
  }
  return null;
}

export function channelUrl(channel: FakeChannelSpec): string {
  return `https://www.youtube.com/channel/${channel.channelId}`;
}

function browseEndpoint(channel: FakeChannelSpec, tab: TabName): unknown {
  return {
    clickTrackingParams: trackingParams(`${channel.channelId}:${tab}`),
    commandMetadata: {
      webCommandMetadata: {
        url: `/@${channel.handle}/${TAB_PATHS[tab]}`,
        webPageType: 'WEB_PAGE_TYPE_CHANNEL',
        rootVe: 3611,
        apiUrl: '/youtubei/v1/browse',
      },
    },
    browseEndpoint: { browseId: channel.channelId, params: TAB_PARAMS[tab], canonicalBaseUrl: `/@${channel.handle}` },
  };
}

export function tabs(channel: FakeChannelSpec, selected: TabName, content: unknown): unknown[] {
  return (Object.keys(TAB_PARAMS) as TabName[]).map((tab) => ({
    tabRenderer: {
      endpoint: browseEndpoint(channel, tab),
      title: tab,
      ...(tab === selected ? { selected: true, content } : {}),
      trackingParams: trackingParams(`${channel.channelId}:tab:${tab}`),
    },
  }));
}

export function channelHeader(channel: FakeChannelSpec): unknown {
  const row = (...texts: string[]) => ({ metadataParts: texts.map((content) => ({ text: { content }, enableTruncation: true })) });
  return {
    pageHeaderRenderer: {
      pageTitle: channel.title,
      content: {
        pageHeaderViewModel: {
          title: { dynamicTextViewModel: { text: { content: channel.title }, maxLines: 2 } },
          metadata: {
            contentMetadataViewModel: {
              metadataRows: [
                row(`@${channel.handle}`),
                row(shortViews(channel.videos.length * 137).replace('views', 'subscribers'), `${channel.videos.length} videos`),
              ],
              delimiter: '•',
            },
          },
        },
      },
    },
  };
}

export function channelMetadata(channel: FakeChannelSpec): unknown {
  const url = channelUrl(channel);
  return {
    channelMetadataRenderer: {
      title: channel.title,
      description: `Videos about everything by ${channel.title}.`,
      rssUrl: `https://www.youtube.com/feeds/videos.xml?channel_id=${channel.channelId}`,
      externalId: channel.channelId,
      keywords: channel.handle,
      ownerUrls: [`http://www.youtube.com/@${channel.handle}`],
      avatar: { thumbnails: [{ url: 'https://yt3.googleusercontent.com/ytc/fake=s900-c-k-c0x00ffffff-no-rj', width: 900, height: 900 }] },
      channelUrl: url,
      isFamilySafe: true,
      vanityChannelUrl: `http://www.youtube.com/@${channel.handle}`,
    },
  };
}

export function channelMicroformat(channel: FakeChannelSpec): unknown {
  const url = channelUrl(channel);
  return {
    microformatDataRenderer: {
      urlCanonical: url,
      title: channel.title,
      description: `Videos about everything by ${channel.title}.`,
      siteName: 'YouTube',
      appName: 'YouTube',
      ogType: 'yt-fb-app:channel',
      urlApplinksWeb: `${url}?feature=applinks`,
      schemaDotOrgType: 'http://schema.org/http://schema.org/YoutubeChannelV2',
      noindex: false,
      unlisted: false,
      familySafe: true,
    },
  };
}

/** A whole channel browse answer with `selected` tab holding `content`. */
export function channelBrowse(channel: FakeChannelSpec, selected: TabName, content: unknown): unknown {
  return {
    responseContext: responseContext('WEB', WEB_VERSION, {
      route: `channel.${TAB_PATHS[selected]}`,
      browse_id: channel.channelId,
    }),
    contents: { twoColumnBrowseResultsRenderer: { tabs: tabs(channel, selected, content) } },
    header: channelHeader(channel),
    metadata: channelMetadata(channel),
    trackingParams: trackingParams(`${channel.channelId}:browse`),
    topbar: { desktopTopbarRenderer: {} },
    microformat: channelMicroformat(channel),
  };
}

/** A channel the platform does not know: HTTP 200 with an alert (browse-channel-removed.json). */
export function channelMissing(channelId: string): unknown {
  return {
    responseContext: responseContext('WEB', WEB_VERSION, { browse_id: channelId }),
    alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: 'This channel does not exist.' } } }],
    trackingParams: trackingParams(`missing:${channelId}`),
    topbar: { desktopTopbarRenderer: {} },
  };
}
