/**
 * Indents XML or HTML source for reading. A tokenizer, not a parser: malformed input is still
 * shown, each tag on its own line, and nothing is evaluated (the result is rendered as text).
 */
const TOKEN = /(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<![^>]*>|<\/[^>]+>|<[^>]+?\/>|<[^>]+>|[^<]+|<)/g;
const INDENT = '  ';

/** Above this size the raw text is shown as it came: indenting megabytes would stall the page. */
export const XML_FORMAT_MAX_CHARS = 1_000_000;

/** HTML elements that never have a closing tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

const tagName = (token: string) => /^<\/?([a-zA-Z][\w:-]*)/.exec(token)?.[1]?.toLowerCase();

export function formatXml(xml: string, options: { html?: boolean } = {}): string {
  if (xml.length > XML_FORMAT_MAX_CHARS) return xml;
  const isVoid = (token: string) => options.html === true && VOID_ELEMENTS.has(tagName(token) ?? '');
  const lines: string[] = [];
  let depth = 0;
  const tokens = xml.match(TOKEN) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      lines.push(INDENT.repeat(depth) + token);
    } else if (token.startsWith('<') && token.endsWith('>') && !token.startsWith('<?') && !token.startsWith('<!') && !token.endsWith('/>') && !isVoid(token)) {
      // <a>text</a> stays on one line.
      const text = tokens[i + 1];
      const close = tokens[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        lines.push(INDENT.repeat(depth) + token + text.trim() + close);
        i += 2;
        continue;
      }
      lines.push(INDENT.repeat(depth) + token);
      depth++;
    } else {
      // Declarations, comments, CDATA, text, and a stray '<' (malformed input loses no character).
      const text = token.startsWith('<') ? token : token.trim();
      if (text) lines.push(INDENT.repeat(depth) + text);
    }
  }
  return lines.join('\n');
}
