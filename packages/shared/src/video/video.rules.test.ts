import { describe, expect, it } from 'vitest';
import { parseVideo, VIDEO_TYPES, videoEmbedCode, videoEmbedUrl } from './video.rules.ts';

describe('video embeds (spec 001 §3, §9: "VideoTypeId (1 youtube, 2 vimeo, 0 other)"; "autoplay off by default")', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'youtube', 'dQw4w9WgXcQ', 1],
    ['youtube.com/watch?feature=share&v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ', 1],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'youtube', 'dQw4w9WgXcQ', 1],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ', 1],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ', 1],
    ['dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ', 1],
    ['https://vimeo.com/76979871', 'vimeo', '76979871', 2],
    ['https://vimeo.com/channels/staffpicks/76979871', 'vimeo', '76979871', 2],
    ['https://player.vimeo.com/video/76979871?h=abc', 'vimeo', '76979871', 2],
    ['76979871', 'vimeo', '76979871', 2],
    ['https://www.dailymotion.com/video/x7tgad0_some-title', 'dailymotion', 'x7tgad0', 0],
    ['https://www.dailymotion.com/embed/video/x7tgad0', 'dailymotion', 'x7tgad0', 0],
    ['https://dai.ly/x7tgad0', 'dailymotion', 'x7tgad0', 0],
    ['https://v.youku.com/v_show/id_XNDc2MzQ1NjQ4.html', 'youku', 'XNDc2MzQ1NjQ4', 0],
    ['https://player.youku.com/embed/XNDc2MzQ1NjQ4', 'youku', 'XNDc2MzQ1NjQ4', 0],
    ['https://vine.co/v/hBFzFmK1Jdj', 'vine', 'hBFzFmK1Jdj', 0],
    [
      '<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&amp;x=1"></iframe>',
      'youtube',
      'dQw4w9WgXcQ',
      1,
    ],
  ])('recognises %j', (input, provider, id, typeId) => {
    const video = parseVideo(input);
    expect(video).toMatchObject({ Provider: provider, VideoId: id, VideoTypeId: typeId });
    expect(video?.EmbedUrl).toContain('autoplay=0');
    expect(video?.EmbedCode).toContain(`src="${video?.EmbedUrl}"`);
  });

  it.each([
    [''],
    [null],
    ['https://example.org/video/123'],
    ['https://www.youtube.com/channel/UC123'],
    ['https://www.youtube.com/watch?v=short'],
    ['https://vimeo.com/about'],
    ['https://www.dailymotion.com/user/someone'],
    ['hello'],
    ['http://'],
  ])('returns null for %j', (input) => {
    expect(parseVideo(input)).toBeNull();
  });

  it('takes a provider for a bare id, and refuses a link of another provider', () => {
    expect(parseVideo('x7tgad0', 'dailymotion')).toMatchObject({ Provider: 'dailymotion', VideoTypeId: 0 });
    expect(parseVideo('hBFzFmK1Jdj', 'vine')).toMatchObject({ Provider: 'vine' });
    expect(parseVideo('https://vimeo.com/76979871', 'youtube')).toBeNull();
    expect(parseVideo('https://vimeo.com/76979871', 'vimeo')).toMatchObject({ VideoId: '76979871' });
    expect(VIDEO_TYPES).toEqual({ Other: 0, YouTube: 1, Vimeo: 2 });
  });

  it('builds player addresses with autoplay off and escapes the iframe attributes', () => {
    expect(videoEmbedUrl('youtube', 'abc')).toBe('https://www.youtube.com/embed/abc?autoplay=0');
    expect(videoEmbedUrl('vimeo', '1')).toBe('https://player.vimeo.com/video/1?autoplay=0');
    expect(videoEmbedUrl('dailymotion', 'x1')).toBe('https://www.dailymotion.com/embed/video/x1?autoplay=0');
    expect(videoEmbedUrl('youku', 'X1')).toBe('https://player.youku.com/embed/X1?autoplay=0');
    expect(videoEmbedUrl('vine', 'v1')).toBe('https://vine.co/v/v1/embed/simple?autoplay=0');
    expect(
      videoEmbedCode('https://x.org/?a=1&b="2"', { title: '<Annual meeting>', width: 640, height: 360 }),
    ).toBe(
      '<iframe src="https://x.org/?a=1&amp;b=&quot;2&quot;" width="640" height="360" title="&lt;Annual meeting&gt;" frameborder="0" allow="fullscreen; picture-in-picture" allowfullscreen></iframe>',
    );
  });
});
