/**
 * Reads a JSON document of the form `{"session": {...}, "items": [{...}, ...]}` as it streams in,
 * handing out each top-level member and each element of the `items` array as its own JSON text
 * as soon as it is complete. The scanner only finds where values start and end (strings, escapes,
 * nesting); each value is then read by the native `JSON.parse`, far faster than a parser that
 * builds values in script (a shared session's data.json runs to hundreds of megabytes).
 */
export interface ScannedParts {
  /** Members of the root object other than `items`, by key, as JSON text. */
  members: Array<[key: string, json: string]>;
  /** Elements of the root's `items` array completed by this chunk, as JSON text. */
  items: string[];
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COLON = 58;
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export class JsonItemsScanner {
  /** Text not yet handed out: from the start of the value being read. */
  private buffer = '';
  /** Where scanning resumes in `buffer`. */
  private at = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Start in `buffer` of the value being read at depth 1 (member) or 2 (item); -1 for none. */
  private valueStart = -1;
  /** Start of the key string being read at depth 1, and the last key read. */
  private keyStart = -1;
  private key: string | null = null;
  private inItems = false;
  /** The value being read is a number, true, false or null (it has no closing character). */
  private primitive = false;
  private finished = false;

  /** True once the root object closed. */
  get done(): boolean {
    return this.finished;
  }

  push(chunk: string): ScannedParts {
    const out: ScannedParts = { members: [], items: [] };
    this.buffer += chunk;
    const text = this.buffer;
    let i = this.at;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyStart !== -1) {
            this.key = JSON.parse(text.slice(this.keyStart, i + 1)) as string;
            this.keyStart = -1;
          } else if (this.valueStart !== -1 && this.depth === (this.inItems ? 2 : 1)) {
            this.endValue(text, i + 1, out);
          }
        }
        continue;
      }
      if (this.primitive && (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c))) {
        // A number, true, false or null ends at the first character that cannot be part of it.
        this.primitive = false;
        this.endValue(text, i, out);
      }
      if (isSpace(c)) continue;
      if (this.depth === 1 && !this.inItems && this.valueStart === -1) {
        // Between members of the root: a key, its colon, or a comma.
        if (c === QUOTE && this.key === null) {
          this.keyStart = i;
          this.inString = true;
          continue;
        }
        if (c === COLON || c === COMMA) continue;
        if (c === CLOSE_BRACE) {
          this.depth = 0;
          this.finished = true;
          continue;
        }
        if (this.key === 'items' && c === OPEN_BRACKET) {
          this.inItems = true;
          this.depth = 2;
          continue;
        }
        this.startValue(i, c);
      } else if (this.depth === 2 && this.inItems && this.valueStart === -1) {
        if (c === COMMA) continue;
        if (c === CLOSE_BRACKET) {
          this.inItems = false;
          this.depth = 1;
          this.key = null;
          continue;
        }
        this.startValue(i, c);
      } else if (this.depth === 0) {
        if (c === OPEN_BRACE) this.depth = 1;
        continue;
      }
      if (this.primitive) continue;
      const base = this.inItems ? 2 : 1;
      if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
        if (this.depth === base) this.endValue(text, i + 1, out);
      }
    }
    this.at = i;
    this.compact();
    return out;
  }

  /** A value starts at `i` with the character `c`: a number, true, false or null is a primitive. */
  private startValue(i: number, c: number): void {
    this.valueStart = i;
    this.primitive = c !== QUOTE && c !== OPEN_BRACE && c !== OPEN_BRACKET;
  }

  private endValue(text: string, end: number, out: ScannedParts): void {
    const json = text.slice(this.valueStart, end);
    if (this.inItems) out.items.push(json);
    else {
      out.members.push([this.key ?? '', json]);
      this.key = null;
    }
    this.valueStart = -1;
  }

  /** Drops the text already handed out, so the buffer holds at most the value being read. */
  private compact(): void {
    const keep = this.valueStart !== -1 ? this.valueStart : this.keyStart !== -1 ? this.keyStart : this.at;
    if (keep === 0) return;
    this.buffer = this.buffer.slice(keep);
    this.at -= keep;
    if (this.valueStart !== -1) this.valueStart -= keep;
    if (this.keyStart !== -1) this.keyStart -= keep;
  }
}
