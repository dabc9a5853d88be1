import type { CompactItem } from '@spyglass/protocol';
import type { SliceHost } from './time-slicer';

/** A log item for the store tests and the store benchmark: only what the store looks at varies. */
export function logItem(id: string, createdAt: number, fields: { level?: string; isMocked?: boolean; message?: string; num?: number } = {}): CompactItem {
  const iso = new Date(createdAt).toISOString();
  return {
    id,
    deviceId: 'device-1',
    num: fields.num ?? 1,
    type: 'log',
    level: fields.level ?? 'info',
    method: null,
    url: null,
    status: null,
    duration: null,
    size: 0,
    sentAt: null,
    createdAt: iso,
    updatedAt: iso,
    tags: [],
    notes: null,
    isMocked: fields.isMocked ?? false,
    mock: null,
    mockData: null,
    metaData: null,
    details: { message: fields.message ?? `message ${id}` },
  };
}

/** A slice host that runs nothing until told: tests step through a recompute slice by slice. */
export class ManualHost implements SliceHost {
  readonly tasks: (() => void)[] = [];

  post(task: () => void): () => void {
    this.tasks.push(task);
    return () => {
      const at = this.tasks.indexOf(task);
      if (at >= 0) this.tasks.splice(at, 1);
    };
  }

  /** The clock never moves, so with a slice budget of 0 every slice is one step of the work. */
  now(): number {
    return 0;
  }

  runNext(): boolean {
    const task = this.tasks.shift();
    task?.();
    return task !== undefined;
  }

  runAll(): number {
    let slices = 0;
    while (this.runNext()) slices++;
    return slices;
  }
}
