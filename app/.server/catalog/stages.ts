import type { Logger } from "../logger.ts";
import { errorMessage } from "./errors.ts";
import type { CatalogChange } from "./runner-types.ts";

/**
 * Work that follows a change of some sources (ADR 0084 "Stages"): it runs in the background,
 * never more than once at a time, with the data served when it starts. A newer change of its
 * sources aborts `signal` (an album table that is replaced is closed: it can no longer be
 * read) and runs it again, once, with the newest data when the current run has returned. A
 * thrown error is logged; the sync never waits for a stage nor sees its failure.
 */
export interface Stage<D> {
  name: string;
  /** the sources whose change starts it */
  after: readonly (keyof D & string)[];
  run(data: Readonly<D>, change: CatalogChange<keyof D & string>, signal: AbortSignal): Promise<void>;
}

interface StageState<D> {
  stage: Stage<D>;
  running?: Promise<void>;
  controller?: AbortController;
  pending?: CatalogChange<keyof D & string>;
}

/** The catalog runner's stages (runner.ts): each runs once at a time, after its sources change. */
export class StageRunner<D> {
  readonly #stages = new Set<StageState<D>>();
  readonly #data: () => D;
  readonly #log: Logger;
  #stopped = false;

  constructor(data: () => D, log: Logger) {
    this.#data = data;
    this.#log = log;
  }

  /** Adds a stage; runs it at once with `initial` (its sources already serve data). Returns its removal. */
  add(stage: Stage<D>, initial: CatalogChange<keyof D & string> | undefined): () => void {
    const state: StageState<D> = { stage };
    this.#stages.add(state);
    if (initial) this.#run(state, initial);
    return () => {
      this.#stages.delete(state);
      state.pending = undefined;
      state.controller?.abort(new Error(`stage ${stage.name} removed`));
    };
  }

  /** The served data changed: each stage of those sources runs (or runs again once its run returns). */
  changed(change: CatalogChange<keyof D & string>): void {
    const { sources } = change;
    for (const state of this.#stages) {
      if (!sources.some((name) => state.stage.after.includes(name))) continue;
      if (!state.running) {
        this.#run(state, change);
        continue;
      }
      // its data is being replaced: stop it, and run it once more with the newest data
      const before = state.pending;
      state.pending = { version: change.version, cause: change.cause, sources: [...new Set([...(before?.sources ?? []), ...sources])] };
      state.controller?.abort(new Error(`catalog ${sources.join(", ")} changed (version ${change.version})`));
    }
  }

  /** Aborts every stage (the catalog is closing); returns the runs still going. */
  stopAll(): Array<Promise<void> | undefined> {
    this.#stopped = true;
    for (const state of this.#stages) {
      state.pending = undefined;
      state.controller?.abort(new Error("the catalog is closing"));
    }
    return [...this.#stages].map((s) => s.running);
  }

  #run(state: StageState<D>, change: CatalogChange<keyof D & string>): void {
    if (this.#stopped) return;
    const controller = new AbortController();
    state.controller = controller;
    const run = (async () => {
      try {
        await state.stage.run(this.#data(), change, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) this.#log.debug({ stage: state.stage.name, reason: errorMessage(controller.signal.reason) }, "catalog stage stopped");
        else this.#log.error({ stage: state.stage.name, version: change.version, err: errorMessage(error) }, "catalog stage failed");
      }
    })().finally(() => {
      state.running = undefined;
      const next = state.pending;
      state.pending = undefined;
      if (next && this.#stages.has(state)) this.#run(state, next);
    });
    state.running = run;
  }
}
