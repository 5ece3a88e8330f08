import { logger } from './logger.ts';

/**
 * A value a warm container keeps and refreshes in the background: the first caller waits for it,
 * later callers get the current value at once, and once `intervalMs` has passed since the last
 * look the next caller starts a refresh whose result replaces the value when it arrives. With
 * `waitForRefresh`, callers that come while a refresh runs (the one that started it included)
 * wait for it instead, so no caller is answered with a value read more than `intervalMs` before it
 * asked (a value cheap to read, whose staleness has a promised bound). A failed refresh keeps the
 * current value (and is logged); a failed first load is forgotten, so the next caller tries again.
 */
export class RefreshedValue<V> {
  private current: Promise<V>;
  private checkedAt = Date.now();
  private refreshing: Promise<void> | undefined;
  private failed = false;

  constructor(
    /** Loads the value; `previous` is the value being refreshed (undefined on the first load). */
    private readonly load: (previous: V | undefined) => Promise<V>,
    private readonly intervalMs: () => number,
    /** What the log calls the value when a refresh fails, with the fields to log. */
    private readonly describe: { message: string; fields: Record<string, unknown> },
    private readonly options: { waitForRefresh?: boolean } = {},
  ) {
    this.current = this.load(undefined);
    this.current.catch(() => {
      this.failed = true;
    });
  }

  /** The value; rejects when the first load failed (the value is then spent: make a new one). */
  get(): Promise<V> {
    if (!this.failed && !this.refreshing && Date.now() - this.checkedAt > this.intervalMs()) this.refresh();
    const refreshing = this.refreshing;
    return this.options.waitForRefresh && refreshing ? refreshing.then(() => this.current) : this.current;
  }

  /** Whether the first load failed, so the holder should drop this value and start again. */
  get spent(): boolean {
    return this.failed;
  }

  private refresh(): void {
    this.checkedAt = Date.now();
    this.refreshing = (async () => {
      const next = await this.load(await this.current);
      this.current = Promise.resolve(next);
    })()
      .catch((error: unknown) => logger.warn(this.describe.message, { ...this.describe.fields, error: error as Error }))
      .finally(() => {
        this.refreshing = undefined;
      });
  }
}
