import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDE_TYPES, typeLabel } from '../../src/lib/guide-content.ts';

// The library's type filter offers every guide type a real site has. iFixit's OpenAPI description of API
// 2.0 lists them (the `filter` of `GET /guides`, the `type` of a guide): a type missing from the filter
// left those guides out of every choice but "All types".

const DESCRIPTION = path.resolve(import.meta.dirname, '../fixtures/ifixit-openapi/requests-2.0.json');

interface Parameter {
  name: string;
  schema?: { enum?: string[] };
}

describe('guide types', () => {
  it('offers each type iFixit describes, in words', () => {
    const description = JSON.parse(fs.readFileSync(DESCRIPTION, 'utf8')) as {
      paths: Record<string, { get?: { parameters?: Parameter[] } }>;
    };
    const filter = description.paths['/guides']?.get?.parameters?.find((p) => p.name === 'filter');
    const described = filter?.schema?.enum ?? [];
    expect(described).toContain('how-to');
    for (const type of described) expect(GUIDE_TYPES).toContain(type);
    expect(typeLabel('how-to')).toBe('How-to');
  });
});
