import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * Which items' mocked icons flash now (spec 001 §4: for 0.5 s when a new request was answered by
 * that item's mock). The mocks feature keeps them; the table only shows them.
 */
export interface ItemFlashes {
  subscribe(listener: () => void): () => void;
  /** The running flash's number (a new flash of the same item gets a new one), or 0. */
  flashOf(itemId: string): number;
}

/** Lists that cannot be mocked (sessions, the public view) show no flashes. */
export const NO_ITEM_FLASHES: ItemFlashes = { subscribe: () => () => undefined, flashOf: () => 0 };

export const ItemFlashesContext = createContext<ItemFlashes>(NO_ITEM_FLASHES);

/** The flash of an item's mocked icon: 0, or a number to key the icon's animation with. */
export function useItemFlash(itemId: string): number {
  const flashes = useContext(ItemFlashesContext);
  return useSyncExternalStore(flashes.subscribe, () => flashes.flashOf(itemId));
}
