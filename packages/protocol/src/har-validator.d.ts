/** har-validator ships no types; the tests use its promise API to check exported HAR files. */
declare module 'har-validator' {
  export function har(data: unknown): Promise<unknown>;
}
