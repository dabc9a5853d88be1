import { describe, expect, it } from 'vitest';
import { formatXml, XML_FORMAT_MAX_CHARS } from './xml-format';

describe('formatXml', () => {
  it('indents nested elements and keeps short text elements on one line', () => {
    const xml = '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><guid>1</guid><empty/></item></channel></rss>';
    expect(formatXml(xml)).toBe([
      '<?xml version="1.0"?>',
      '<rss version="2.0">',
      '  <channel>',
      '    <title>News</title>',
      '    <item>',
      '      <guid>1</guid>',
      '      <empty/>',
      '    </item>',
      '  </channel>',
      '</rss>',
    ].join('\n'));
  });

  it('keeps comments, CDATA and doctype as they are, and drops whitespace between tags', () => {
    const xml = '<!DOCTYPE note>\n<note>\n  <!-- a comment -->\n  <body><![CDATA[<b>x</b>]]></body>\n</note>';
    expect(formatXml(xml)).toBe(['<!DOCTYPE note>', '<note>', '  <!-- a comment -->', '  <body>', '    <![CDATA[<b>x</b>]]>', '  </body>', '</note>'].join('\n'));
  });

  it('shows malformed input without failing', () => {
    expect(formatXml('</a></b>text<c')).toBe(['</a>', '</b>', 'text', '<', 'c'].join('\n'));
    expect(formatXml('')).toBe('');
  });

  it('leaves very large documents as they came', () => {
    const big = `<a>${'x'.repeat(XML_FORMAT_MAX_CHARS)}</a>`;
    expect(formatXml(big)).toBe(big);
  });
});

describe('formatXml for HTML', () => {
  it('does not indent after void elements, and keeps script text as text', () => {
    const html = '<!doctype html><html><head><meta charset="utf-8"><title>Help</title></head><body><img src=x onerror=alert(1)><br><script>alert(1)</script></body></html>';
    expect(formatXml(html, { html: true })).toBe([
      '<!doctype html>',
      '<html>',
      '  <head>',
      '    <meta charset="utf-8">',
      '    <title>Help</title>',
      '  </head>',
      '  <body>',
      '    <img src=x onerror=alert(1)>',
      '    <br>',
      '    <script>alert(1)</script>',
      '  </body>',
      '</html>',
    ].join('\n'));
  });
});
