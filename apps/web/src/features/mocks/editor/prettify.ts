/** What Prettify can format (spec 002 §5: JSON and HTML; spec 001 §4: JSON or XML). */
export type PrettifyFormat = 'json' | 'html' | 'xml';

/**
 * The format of a body: its Content-Type when that names one, else what the text looks like
 * (a body saved from a request may have no Content-Type). Null when there is nothing to format.
 */
export function prettifyFormat(text: string, contentType: string | null | undefined): PrettifyFormat | null {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('html')) return 'html';
  if (type.includes('xml')) return 'xml';
  if (type.includes('json')) return 'json';
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') return 'json';
  if (start === '<') return /^\s*<!doctype html|^\s*<html/i.test(text) ? 'html' : 'xml';
  return null;
}

/**
 * JSON is re-indented with 2 spaces; HTML and XML are reformatted by their formatters, loaded on
 * first use. Throws when the text does not parse.
 */
export async function prettify(text: string, format: PrettifyFormat): Promise<string> {
  switch (format) {
    case 'json':
      return JSON.stringify(JSON.parse(text), null, 2);
    case 'html': {
      const { html } = await import('js-beautify');
      return html(text, { indent_size: 2, wrap_line_length: 0 });
    }
    case 'xml': {
      const { default: formatXml } = await import('xml-formatter');
      return formatXml(text, { indentation: '  ', collapseContent: true, lineSeparator: '\n' });
    }
  }
}
