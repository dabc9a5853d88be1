/** The json export (spec 001 §7: `spyglass-requests.json`): an array of the items, one per line. */
import type { ExportEncoder } from './export';
import type { CapturedItem } from './items';

export function jsonExportEncoder(): ExportEncoder {
  let written = 0;
  return {
    begin: () => '[',
    encode(items: ArrayLike<CapturedItem>, from: number, to: number): string {
      let out = '';
      for (let i = from; i < to; i++) out += (written++ === 0 ? '\n' : ',\n') + JSON.stringify(items[i]);
      return out;
    },
    end: () => (written === 0 ? ']\n' : '\n]\n'),
  };
}
