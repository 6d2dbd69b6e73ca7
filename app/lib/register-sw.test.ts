import { describe, expect, it, vi } from "vitest";
import { registerServiceWorker } from "./register-sw";

function fakeWindow(register: (url: string) => Promise<unknown>) {
  const listeners: Array<() => void> = [];
  return {
    listeners,
    win: {
      addEventListener: (_type: string, fn: () => void) => listeners.push(fn),
      navigator: { serviceWorker: { register } as unknown as ServiceWorkerContainer },
    } as unknown as Parameters<typeof registerServiceWorker>[0],
  };
}

describe("registerServiceWorker", () => {
  it("registers /sw.js once the page has loaded", () => {
    const register = vi.fn(() => Promise.resolve({}));
    const { win, listeners } = fakeWindow(register);
    registerServiceWorker(win, { readyState: "interactive" });
    expect(register).not.toHaveBeenCalled();
    listeners.forEach((fn) => fn());
    expect(register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
  });

  it("registers at once when the load event has already fired", () => {
    const register = vi.fn(() => Promise.resolve({}));
    registerServiceWorker(fakeWindow(register).win, { readyState: "complete" });
    expect(register).toHaveBeenCalledTimes(1);
  });

  it("only logs a failed registration", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("blocked");
    registerServiceWorker(fakeWindow(() => Promise.reject(failure)).win, { readyState: "complete" });
    await new Promise((r) => setTimeout(r, 0));
    expect(error).toHaveBeenCalledWith("Service worker registration failed:", failure);
    error.mockRestore();
  });

  it("does nothing in a browser without service workers", () => {
    const win = { addEventListener: vi.fn(), navigator: {} } as unknown as Parameters<typeof registerServiceWorker>[0];
    expect(() => registerServiceWorker(win, { readyState: "complete" })).not.toThrow();
    expect(win!.addEventListener).not.toHaveBeenCalled();
  });
});
