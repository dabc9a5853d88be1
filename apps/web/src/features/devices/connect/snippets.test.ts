import { describe, expect, it } from 'vitest';
import { connectLink, connectSnippets } from './snippets';

describe('connect screen snippets', () => {
  const snippets = connectSnippets('sg_live_ABC123', 'https://spy.example.com');

  it('offer iOS, Android and JavaScript, each with the key and the server', () => {
    expect(snippets.map((s) => `${s.platform}/${s.language}`)).toEqual(['ios/swift', 'android/kotlin', 'javascript/typescript']);
    for (const snippet of snippets) {
      expect(snippet.code).toContain('sg_live_ABC123');
      expect(snippet.code).toContain('https://spy.example.com');
    }
  });

  it('use the real JavaScript SDK API', () => {
    const js = snippets[2]!.code;
    expect(js).toContain("import { createSpyglass } from '@spyglass/sdk';");
    expect(js).toContain("serverUrl: 'https://spy.example.com',");
    expect(js).toContain("apiKey: 'sg_live_ABC123',");
  });

  it('escape what would end a string literal', () => {
    const [ios, , js] = connectSnippets(`k"e'y`, 'http://x');
    expect(ios!.code).toContain('apiKey: "k\\"e\'y",');
    expect(js!.code).toContain("apiKey: 'k\"e\\'y',");
  });
});

describe('connectLink', () => {
  it('is a link to this server\'s web companion carrying api-key', () => {
    const link = new URL(connectLink('http://localhost:8080', 'sg_live_A+B'));
    expect(link.origin).toBe('http://localhost:8080');
    expect(link.pathname).toBe('/companion');
    expect(link.searchParams.get('api-key')).toBe('sg_live_A+B');
  });
});
