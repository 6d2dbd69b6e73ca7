import { useSyncExternalStore } from "react";
import { addToShortlist, readShortlist, SHORTLIST_STORAGE_KEY, type ShortlistEntry } from "./shortlist.ts";

/**
 * The visitor's shortlist in localStorage (issue #11), shared by every component that shows
 * or changes it and kept in step across tabs (the `storage` event). The server renders every
 * page as if the list were empty (it cannot see the browser's storage); React swaps in the real
 * list after hydration, in place (buttons change state, nothing moves).
 */
const EMPTY: readonly ShortlistEntry[] = [];
const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedList: readonly ShortlistEntry[] = EMPTY;

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    // storage can be switched off (a privacy setting): the shortlist is then empty
    return null;
  }
}

export function currentShortlist(): readonly ShortlistEntry[] {
  let raw: string | null;
  try {
    raw = storage()?.getItem(SHORTLIST_STORAGE_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    const list = readShortlist(raw);
    // An empty list is the server's snapshot itself: after hydration React compares the two and
    // re-renders every shortlist button and the header counter synchronously when they differ.
    cachedList = list.length ? list : EMPTY;
  }
  return cachedList;
}

function save(list: readonly ShortlistEntry[]): boolean {
  try {
    storage()?.setItem(SHORTLIST_STORAGE_KEY, JSON.stringify(list));
  } catch {
    return false;
  }
  for (const listener of listeners) listener();
  return true;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === SHORTLIST_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The list, empty on the server and during hydration. */
export function useShortlist(): readonly ShortlistEntry[] {
  return useSyncExternalStore(subscribe, currentShortlist, () => EMPTY);
}

/** Adds entries; "full" when the cap left some out, "failed" when the browser refused to store. */
export function addShortlistEntries(entries: readonly ShortlistEntry[]): "added" | "full" | "failed" {
  const { list, full } = addToShortlist(currentShortlist(), entries);
  if (!save(list)) return "failed";
  return full ? "full" : "added";
}

export function removeShortlistEntry(id: string): void {
  save(currentShortlist().filter((e) => e.id !== id));
}
