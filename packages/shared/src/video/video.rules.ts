/** "VideoTypeId (1 youtube, 2 vimeo, 0 other)" (spec 000 section 3, spec 001 section 3). */
export const VIDEO_TYPES = { Other: 0, YouTube: 1, Vimeo: 2 } as const;
export type VideoTypeId = (typeof VIDEO_TYPES)[keyof typeof VIDEO_TYPES];

/** "Video embed players: youtube, vimeo, dailymotion, youku, vine; autoplay off by default." (spec 001 §9) */
export const VIDEO_PROVIDERS = ['youtube', 'vimeo', 'dailymotion', 'youku', 'vine'] as const;
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

export interface VideoEmbed {
  VideoTypeId: VideoTypeId;
  Provider: VideoProvider;
  VideoId: string;
  /** The player address, with autoplay off. */
  EmbedUrl: string;
  /** The iframe markup stored as EmbedCode. */
  EmbedCode: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{6,12}$/;
const DAILYMOTION_ID = /^x[a-z0-9]{4,12}$/i;
const YOUKU_ID = /^X[A-Za-z0-9=]{8,20}$/;
const VINE_ID = /^[A-Za-z0-9]{11}$/;

const ID_PATTERNS: Record<VideoProvider, RegExp> = {
  youtube: YOUTUBE_ID,
  vimeo: VIMEO_ID,
  dailymotion: DAILYMOTION_ID,
  youku: YOUKU_ID,
  vine: VINE_ID,
};

/** The player address of a video, autoplay off. */
export function videoEmbedUrl(provider: VideoProvider, id: string): string {
  const encoded = encodeURIComponent(id);
  switch (provider) {
    case 'youtube':
      return `https://www.youtube.com/embed/${encoded}?autoplay=0`;
    case 'vimeo':
      return `https://player.vimeo.com/video/${encoded}?autoplay=0`;
    case 'dailymotion':
      return `https://www.dailymotion.com/embed/video/${encoded}?autoplay=0`;
    case 'youku':
      return `https://player.youku.com/embed/${encoded}?autoplay=0`;
    case 'vine':
      return `https://vine.co/v/${encoded}/embed/simple?autoplay=0`;
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The iframe for a player address (16:9, 560x315 by default). */
export function videoEmbedCode(
  embedUrl: string,
  options: { width?: number; height?: number; title?: string } = {},
): string {
  const { width = 560, height = 315, title = 'Video' } = options;
  return `<iframe src="${escapeAttribute(embedUrl)}" width="${Math.trunc(width)}" height="${Math.trunc(height)}" title="${escapeAttribute(title)}" frameborder="0" allow="fullscreen; picture-in-picture" allowfullscreen></iframe>`;
}

interface ParsedLink {
  hostname: string;
  pathname: string;
  query: ReadonlyMap<string, string>;
}

const LINK = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#:]+)(?::\d+)?([^?#]*)(?:\?([^#]*))?/i;

/** Splits a link into host, path and query (shared code has no URL class of its own). */
function parseLink(text: string): ParsedLink | null {
  const match = LINK.exec(
    /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('//') ? text : `//${text}`,
  );
  if (!match) return null;
  const query = new Map<string, string>();
  for (const pair of (match[3] ?? '').split('&')) {
    const [key = '', value = ''] = pair.split('=');
    if (key !== '' && !query.has(key)) query.set(key, value);
  }
  return { hostname: match[1] ?? '', pathname: match[2] ?? '', query };
}

function fromLink(url: ParsedLink): { provider: VideoProvider; id: string } | null {
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const [first = '', second = '', third = ''] = segments;
  const found = (provider: VideoProvider, id: string | null | undefined) =>
    id && ID_PATTERNS[provider].test(id) ? { provider, id } : null;
  if (host === 'youtu.be') return found('youtube', first);
  if (host === 'youtube.com' || host === 'youtube-nocookie.com' || host === 'music.youtube.com') {
    if (first === 'watch') return found('youtube', url.query.get('v'));
    if (['embed', 'shorts', 'v', 'live'].includes(first)) return found('youtube', second);
    return null;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    return found(
      'vimeo',
      [...segments].reverse().find((segment) => VIMEO_ID.test(segment)),
    );
  }
  if (host === 'dai.ly') return found('dailymotion', first);
  if (host === 'dailymotion.com') {
    const id = first === 'video' ? second : first === 'embed' && second === 'video' ? third : '';
    return found('dailymotion', id.split('_')[0]);
  }
  if (host === 'v.youku.com' && first === 'v_show')
    return found('youku', /^id_(.+?)(?:\.html)?$/.exec(second)?.[1]);
  if (host === 'player.youku.com' && first === 'embed') return found('youku', second);
  if (host === 'vine.co' && first === 'v') return found('vine', second);
  return null;
}

/**
 * Recognises a YouTube, Vimeo, Dailymotion, Youku or Vine link, a pasted iframe, or a bare id, and produces the
 * embed with autoplay off. A bare id needs `provider` unless it has YouTube's 11-character shape or Vimeo's
 * all-digit shape. Null when nothing is recognised.
 */
export function parseVideo(
  input: string | null | undefined,
  provider?: VideoProvider | null,
): VideoEmbed | null {
  let text = (input ?? '').trim();
  if (text === '') return null;
  const iframeSource = /<iframe[^>]*\ssrc=["']([^"']+)["']/i.exec(text)?.[1];
  if (iframeSource) text = iframeSource.replace(/&amp;/g, '&');
  let match: { provider: VideoProvider; id: string } | null = null;
  if (provider && ID_PATTERNS[provider].test(text)) match = { provider, id: text };
  else if (!provider && YOUTUBE_ID.test(text) && !/^\d+$/.test(text))
    match = { provider: 'youtube', id: text };
  else if (!provider && VIMEO_ID.test(text)) match = { provider: 'vimeo', id: text };
  else if (/[./]/.test(text)) {
    const link = parseLink(text);
    match = link ? fromLink(link) : null;
    if (match && provider && match.provider !== provider) match = null;
  }
  if (!match) return null;
  const embedUrl = videoEmbedUrl(match.provider, match.id);
  return {
    VideoTypeId:
      match.provider === 'youtube'
        ? VIDEO_TYPES.YouTube
        : match.provider === 'vimeo'
          ? VIDEO_TYPES.Vimeo
          : VIDEO_TYPES.Other,
    Provider: match.provider,
    VideoId: match.id,
    EmbedUrl: embedUrl,
    EmbedCode: videoEmbedCode(embedUrl),
  };
}
