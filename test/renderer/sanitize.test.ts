// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { embedTarget, embedTitle } from '../../src/lib/embed.ts';
import { defuseHandlers, sanitizeHtml } from '../../src/lib/sanitize.ts';

// Server HTML is untrusted: these are the shapes an attacker (or a broken site) could send.
const dom = (html: string): HTMLElement => {
  const host = document.createElement('div');
  host.innerHTML = sanitizeHtml(html);
  return host;
};

describe('server HTML made safe to show', () => {
  it('keeps the text and ordinary formatting', () => {
    const host = dom('<p>Open the <strong>drain valve</strong> and <em>wait</em>.</p><ul><li>one</li></ul>');
    expect(host.textContent).toBe('Open the drain valve and wait.one');
    expect(host.querySelector('strong')?.textContent).toBe('drain valve');
    expect(host.querySelector('ul li')).not.toBeNull();
  });

  it('drops scripts, styles, frames, plugins and forms, keeping surrounding text', () => {
    const host = dom(
      'Before<script>window.__pwned = 1</script><style>body{display:none}</style>' +
        '<iframe src="https://evil.test"></iframe><object data="x.swf"></object><embed src="x.swf">' +
        '<form action="https://evil.test"><input name="a"><button>Go</button></form>After',
    );
    for (const tag of ['script', 'style', 'iframe', 'object', 'embed', 'form', 'input', 'button']) {
      expect(host.querySelector(tag), tag).toBeNull();
    }
    expect(host.textContent).toContain('Before');
    expect(host.textContent).toContain('After');
  });

  it('strips every event handler attribute', () => {
    const host = dom(
      '<p onclick="x()" onmouseover="y()">Tap</p><a href="https://a.test" ' +
        'onfocus="z()">link</a><div onerror="e()">d</div>',
    );
    for (const element of host.querySelectorAll('*')) {
      expect([...element.attributes].filter((a) => a.name.startsWith('on'))).toEqual([]);
    }
    expect(host.textContent).toBe('Taplinkd');
  });

  it('removes javascript:, data:, vbscript: and relative link targets but keeps the link text', () => {
    const host = dom(
      '<a href="javascript:alert(1)">one</a> <a href=" JaVaScRiPt:alert(1)">two</a> ' +
        '<a href="data:text/html,<script>x</script>">three</a>' +
        ' <a href="vbscript:msgbox(1)">four</a> <a href="/settings">five</a> <a href="//evil.test/x">six</a>',
    );
    expect(host.textContent).toBe('one two three four five six');
    for (const a of host.querySelectorAll('a')) {
      expect(a.hasAttribute('href')).toBe(false);
      expect(a.hasAttribute('target')).toBe(false);
    }
  });

  it('makes web links open outside the app, without an opener or a referrer', () => {
    const a = dom('<a href="https://www.example.com/manual.pdf" target="_self">manual</a>').querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://www.example.com/manual.pdf');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows no images or media from inside text (they would reach the network)', () => {
    const host = dom(
      '<img src="x" onerror="window.__pwned=1">Text<img ' +
        'src="https://tracker.test/p.gif"><video src="https://a.test/v.mp4"></video>',
    );
    expect(host.querySelector('img, video, audio, source')).toBeNull();
    expect(host.textContent).toBe('Text');
  });

  it('drops SVG and MathML, where script can hide', () => {
    const host = dom(
      '<svg><script>window.__pwned=1</script><a ' +
        'xlink:href="javascript:x()"><text>t</text></a></svg><math><mi>x</mi></math>ok',
    );
    expect(host.querySelector('svg, math, script')).toBeNull();
    expect(host.textContent).toContain('ok');
  });

  it('drops style attributes that could fetch something, keeps harmless ones', () => {
    const host = dom(
      '<span style="background:url(https://tracker.test/p.gif)">a</span><span style="color: red">b</span>',
    );
    const [first, second] = host.querySelectorAll('span');
    expect(first?.hasAttribute('style')).toBe(false);
    expect(second?.getAttribute('style')).toBe('color: red');
  });

  it('keeps only text styles: no escaped url(), no position, no z-index', () => {
    const host = dom(
      '<span style="background:\\75 rl(https://tracker.test/escaped.gif)">a</span>' +
        '<div style="position: fixed; inset: 0; z-index: 9999; background-color: ' +
        'white; color: #a00">Session expired, sign in here</div>' +
        '<b style="font-weight: 700; color: rgb(10, 20, 30)">c</b>',
    );
    const [escaped, overlay, bold] = [host.querySelector('span'), host.querySelector('div'), host.querySelector('b')];
    expect(escaped?.hasAttribute('style')).toBe(false);
    expect(overlay?.getAttribute('style')).toBe('background-color: white; color: rgb(170, 0, 0)');
    expect(bold?.getAttribute('style')).toBe('font-weight: 700; color: rgb(10, 20, 30)');
  });

  it('survives mutation-XSS shapes and broken markup', () => {
    const host = dom(
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><p>ok</p><div><b>unclosed',
    );
    expect(host.querySelector('img, noscript')).toBeNull();
    expect(host.querySelector('[onerror]')).toBeNull();
    expect(host.textContent).toContain('ok');
  });

  it('renames handlers before any parser sees them, leaving text and other attributes alone', () => {
    expect(defuseHandlers('<img src=x onerror="a()"><p class="x" onclick=b()>on=off, once</p><svg/onload=c()>')).toBe(
      '<img src=x data-defused-onerror="a()"><p class="x" data-defused-onclick=b()>on=off, ' +
        'once</p><svg/data-defused-onload=c()>',
    );
    expect(defuseHandlers('<a title="x" ONMOUSEOVER = "d()">one</a><p onclick>e</p>')).toBe(
      '<a title="x" data-defused-ONMOUSEOVER = "d()">one</a><p data-defused-onclick>e</p>',
    );
    // Any attribute starting with "on" is renamed: no allowed attribute does, so nothing is lost.
    expect(defuseHandlers('<p data-on="1" title="on">t</p>')).toBe('<p data-on="1" title="on">t</p>');
  });

  it('treats empty and missing HTML as nothing', () => {
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml(undefined)).toBe('');
  });
});

describe('embeds shown as a link', () => {
  it('finds the web address and title of an iframe embed', () => {
    const html =
      '<iframe src="https://www.example.com/embed/lp-tank-change" width="640" title="LP tank change"></iframe>';
    expect(embedTarget(html)).toBe('https://www.example.com/embed/lp-tank-change');
    expect(embedTitle(html)).toBe('LP tank change');
  });

  it('gives no address for script URLs or unparseable embeds', () => {
    expect(embedTarget('<iframe src="javascript:alert(1)"></iframe>')).toBeNull();
    expect(embedTarget('<iframe srcdoc="<script>x</script>"></iframe>')).toBeNull();
    expect(embedTarget('not html at all')).toBeNull();
  });

  it('never runs the embed while reading it', () => {
    (globalThis as { __pwned?: boolean }).__pwned = false;
    embedTarget('<img src=x onerror="globalThis.__pwned = true"><script>globalThis.__pwned = true</script>');
    expect((globalThis as { __pwned?: boolean }).__pwned).toBe(false);
  });
});
