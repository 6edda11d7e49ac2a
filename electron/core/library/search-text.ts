import type { GuideDetail } from '../../contract.ts';

/**
 * What the local search index holds of a stored guide: its title, summary, the text of its own steps (a
 * prerequisite's steps are found under the prerequisite, not under every guide that needs it), and its parts
 * and tools with their notes: a technician looks for the guide that fits a part in hand ("AX-section", "ISO
 * 100"), as the empty search's hint says, and a walk found none of them (migration 0024 adds them to what
 * was kept before).
 */
export function searchTextOf(detail: GuideDetail, summary: string): { title: string; summary: string; body: string } {
  const own = detail.steps.filter((step) => (step.guideid ?? detail.guideid) === detail.guideid);
  const body = [
    htmlToText(detail.introductionRendered),
    ...own.flatMap((step) => [step.title, ...step.lines.map((line) => htmlToText(line.textRendered))]),
    htmlToText(detail.conclusionRendered),
    // "Compressor oil, ISO 100 (about 40 oz)": a snippet folds the lines, and a part's notes ran into the next part.
    ...[...detail.parts, ...detail.tools].map((item) =>
      item.notes ? `${item.text} (${item.notes});` : `${item.text};`,
    ),
  ].join('\n');
  return { title: detail.title, summary, body };
}

/** Plain text of server HTML, for the search index only (never shown). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
