/**
 * A one-page PDF with a title and lines of text in Helvetica: a real, valid document for the demo's
 * checklists and data sheets, built without a library. Same input, same bytes (no dates inside).
 */
export function makePdf(title: string, lines: readonly string[]): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`).replace(/[^\x20-\x7e]/g, '?');
  const content = [
    'BT /F2 18 Tf 56 736 Td',
    `(${escape(title)}) Tj`,
    'ET',
    '0.6 w 56 724 m 556 724 l S',
    'BT /F1 11 Tf 56 700 Td 16 TL',
    ...lines.slice(0, 40).map((line) => `(${escape(line)}) Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ' +
      '4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * How many pages a PDF has, as a real site says in a Document's `pages` (iFixit's OpenAPI description):
 * its page objects (`/Type /Page`, not the tree's `/Pages`), read from the file's own text. Null for a file
 * that is not a PDF, or whose pages are inside compressed object streams (PDF 1.5): not known, not guessed.
 */
export function pdfPages(bytes: Buffer): number | null {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return null;
  const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  return pages > 0 ? pages : null;
}
