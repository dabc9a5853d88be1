const SHARDS = 64;
/** Characters from the end of an id that pick its shard: where ids differ (counters, random tails). */
const HASHED_CHARS = 6;

/**
 * id → slot for a million ids. One Map that large rehashes all its entries in one go whenever it
 * doubles (at 2^20 entries that is a single call of tens of ms: a long task in the middle of live
 * traffic); 64 maps each rehash a 64th as often as they grow.
 */
export class IdIndex {
  private readonly shards = Array.from({ length: SHARDS }, () => new Map<string, number>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): number | undefined {
    return this.shard(id).get(id);
  }

  set(id: string, slot: number): void {
    const shard = this.shard(id);
    const before = shard.size;
    shard.set(id, slot);
    this.count += shard.size - before;
  }

  delete(id: string): void {
    if (this.shard(id).delete(id)) this.count--;
  }

  clear(): void {
    for (const shard of this.shards) shard.clear();
    this.count = 0;
  }

  private shard(id: string): Map<string, number> {
    let hash = id.length;
    for (let i = Math.max(0, id.length - HASHED_CHARS); i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) | 0;
    return this.shards[hash & (SHARDS - 1)]!;
  }
}
