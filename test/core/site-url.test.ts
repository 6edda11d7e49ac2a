import { describe, expect, it } from 'vitest';
import { normalizeSiteUrl } from '../../electron/core/connection/site-url.ts';

// What a technician types as a site's address, read as they meant it or refused in words that say what is
// wrong (pure logic; core connect signs in with typed addresses against the reference site).
const refused = (typed: string): string => {
  try {
    return `taken as ${normalizeSiteUrl(typed)}`;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('a site address as typed', () => {
  it('takes a host, a port, a path and a scheme written whole', () => {
    expect(normalizeSiteUrl('demo.example.com')).toBe('https://demo.example.com');
    expect(normalizeSiteUrl('localhost:8080')).toBe('https://localhost:8080');
    expect(normalizeSiteUrl('http://shop.local/api/2.0/')).toBe('http://shop.local');
  });

  it("refuses a scheme typed wrong, and does not take a host's dots or a port for one", () => {
    expect(refused('htps//demo.example.com')).toMatch(/^"htps\/\/demo\.example\.com" does not begin as a web address/);
    expect(refused('https:/demo.example.com')).toMatch(/does not begin as a web address/);
    // A double slash after the host, a port not a number: the start is right (a walk met the scheme's words).
    expect(refused('www.example.com//api/2.0')).toMatch(/^taken as https:\/\/www\.example\.com/);
    expect(refused('demo.example.com:abc')).toBe('"demo.example.com:abc" is not a web address.');
  });
});
