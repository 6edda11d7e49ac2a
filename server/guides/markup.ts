/**
 * A small wiki markup, enough for the demo and generated text: `**bold**`, `''italic''`,
 * `[link|https://url|text]`, `[guide|123|text]`; in blocks, blank lines part paragraphs and lines
 * starting with `* ` make a list. Everything else is escaped, so `*_rendered` never carries a script.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function renderInline(raw: string): string {
  let html = escapeHtml(raw);
  html = html.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
  html = html.replace(/&#39;&#39;(.+?)&#39;&#39;/g, '<em>$1</em>');
  html = html.replace(/\[link\|(https?:\/\/[^|\]\s]+)\|([^\]]+)\]/g, '<a href="$1" rel="nofollow noopener">$2</a>');
  html = html.replace(/\[guide\|(\d+)\|([^\]]+)\]/g, '<a href="/Guide/_/$1">$2</a>');
  return html;
}

export function renderBlock(raw: string): string {
  const blocks = raw
    .trim()
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return blocks
    .map((block) => {
      const lines = block.split('\n').map((line) => line.trim());
      if (lines.every((line) => line.startsWith('* '))) {
        return `<ul>${lines.map((line) => `<li>${renderInline(line.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p>${lines.map(renderInline).join('<br />')}</p>`;
    })
    .join('\n');
}
