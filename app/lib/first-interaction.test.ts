import { describe, expect, it, vi } from "vitest";
import { FIRST_INTERACTION_EVENTS, onFirstInteraction } from "./first-interaction";

/** A window whose listeners can be fired by name. */
function fakeWindow() {
  const listeners = new Map<string, Set<() => void>>();
  return {
    listeners,
    fire: (type: string) => [...(listeners.get(type) ?? [])].forEach((fn) => fn()),
    win: {
      addEventListener: (type: string, fn: () => void) => listeners.set(type, (listeners.get(type) ?? new Set()).add(fn)),
      removeEventListener: (type: string, fn: () => void) => listeners.get(type)?.delete(fn),
    } as unknown as Window,
  };
}

describe("onFirstInteraction", () => {
  it("runs nothing until the visitor interacts, then once, and stops listening", () => {
    const run = vi.fn();
    const { win, fire, listeners } = fakeWindow();
    onFirstInteraction(win, run);
    expect(run).not.toHaveBeenCalled();
    fire("touchstart");
    fire("keydown");
    expect(run).toHaveBeenCalledTimes(1);
    for (const type of FIRST_INTERACTION_EVENTS) expect(listeners.get(type)?.size, type).toBe(0);
  });

  it.each(FIRST_INTERACTION_EVENTS)("starts at a %s", (type) => {
    const run = vi.fn();
    const { win, fire } = fakeWindow();
    onFirstInteraction(win, run);
    fire(type);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
