import { describe, expect, it } from 'vitest';
import { prettify, prettifyFormat } from './prettify';

describe('prettify', () => {
  it('re-indents JSON with 2 spaces', async () => {
    expect(await prettify('{"a":[1,{"b":true}]}', 'json')).toBe('{\n  "a": [\n    1,\n    {\n      "b": true\n    }\n  ]\n}');
  });

  it('throws on JSON that does not parse', async () => {
    await expect(prettify('{"a":', 'json')).rejects.toThrow();
  });

  it('reformats HTML and XML', async () => {
    expect(await prettify('<div><p>Hi</p></div>', 'html')).toBe('<div>\n  <p>Hi</p>\n</div>');
    expect(await prettify('<todos><todo id="1">Buy milk</todo></todos>', 'xml')).toBe('<todos>\n  <todo id="1">Buy milk</todo>\n</todos>');
  });

  it('takes the format from the Content-Type, else from the text', () => {
    expect(prettifyFormat('x', 'text/html; charset=utf-8')).toBe('html');
    expect(prettifyFormat('x', 'application/xml')).toBe('xml');
    expect(prettifyFormat('x', 'application/json')).toBe('json');
    expect(prettifyFormat(' [1]', null)).toBe('json');
    expect(prettifyFormat('<a/>', undefined)).toBe('xml');
    expect(prettifyFormat('<!DOCTYPE html><html></html>', '')).toBe('html');
    expect(prettifyFormat('plain words', 'text/plain')).toBeNull();
  });
});
