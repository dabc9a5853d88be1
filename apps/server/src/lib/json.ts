/** Stored or relayed JSON text as a value, or undefined when it does not parse (the caller validates the shape). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
