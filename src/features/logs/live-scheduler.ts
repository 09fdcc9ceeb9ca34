/**
 * When Live asks for new verifications, apart from React and from the clock (both handed in, so that a test or the
 * bench drives an hour of it in a moment). The real service allows a workspace 1,000 analytics queries an hour,
 * shared by everyone: Live spends at most `budgetPerHour` of them while the tab is visible, by construction (no query
 * starts while the last hour already holds that many), none while it is hidden, asks less often while nothing
 * arrives, and stops at the quota's refusal until the time the service names.
 */

export interface LivePolicy {
  /** The most queries Live starts in any hour. */
  budgetPerHour: number;
  /** From one query's start to the next while verifications arrive (so one made now shows within about this). */
  baseMs: number;
  /** Empty answers in a row after which the wait doubles, up to `maxMs`. */
  quietAfter: number;
  maxMs: number;
}

export const LIVE_POLICY: LivePolicy = { budgetPerHour: 400, baseMs: 9_000, quietAfter: 6, maxMs: 30_000 };

const HOUR_MS = 3_600_000;

/** What a query told: how many new verifications arrived, or why none could be read. */
export type PollResult =
  | { kind: "rows"; arrived: number }
  /** The workspace's quota is spent: no query before `resumeAt` (ms). */
  | { kind: "quota"; resumeAt: number }
  /** `fatal`: asking again cannot help (a permission, a query refused); otherwise try again later. */
  | { kind: "failed"; fatal: boolean };

export type LiveState =
  | { phase: "off" }
  /** The tab is hidden: nothing is asked until it shows again. */
  | { phase: "hidden" }
  | { phase: "waiting"; nextAt: number; intervalMs: number; quiet: boolean }
  /** Asking; `intervalMs`: the wait it asks at. */
  | { phase: "polling"; intervalMs: number }
  /** This hour's budget is spent: the next query waits for the oldest to leave the hour. */
  | { phase: "budget"; nextAt: number }
  | { phase: "quota"; resumeAt: number }
  | { phase: "failed"; fatal: boolean; nextAt: number | null };

export interface LiveClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: LiveClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class LiveScheduler {
  private on = false;
  private visible = true;
  private inFlight = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private emptyInARow = 0;
  private failuresInARow = 0;
  private timer: unknown = undefined;
  private current: LiveState = { phase: "off" };

  /**
   * `sent`: when each query of the last hour started, shared by the schedulers of one tab and connection (a new view
   * starts a new schedule, not a new budget).
   */
  constructor(
    private readonly poll: () => Promise<PollResult>,
    private readonly onChange: (state: LiveState) => void = () => undefined,
    private readonly clock: LiveClock = SYSTEM_CLOCK,
    private readonly policy: LivePolicy = LIVE_POLICY,
    private readonly sent: number[] = [],
  ) {}

  get state(): LiveState {
    return this.current;
  }

  /** Queries started in the last hour. */
  spentInLastHour(): number {
    this.forgetOlderThanAnHour();
    return this.sent.length;
  }

  /** `immediately`: ask at once (Live turned on); otherwise after the usual wait (a view just loaded). */
  start({ immediately = true }: { immediately?: boolean } = {}): void {
    if (this.on) return;
    this.on = true;
    this.emptyInARow = 0;
    this.failuresInARow = 0;
    if (!immediately) this.lastStart = this.clock.now();
    if (this.visible) this.scheduleAt(immediately ? this.clock.now() : this.lastStart + this.policy.baseMs);
    else this.set({ phase: "hidden" });
  }

  stop(): void {
    this.on = false;
    this.clearTimer();
    this.set({ phase: "off" });
  }

  /** The tab shows or hides: hidden, nothing is asked; shown again, Live asks once the usual wait since the last query is over. */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (!this.on) return;
    if (!visible) {
      this.clearTimer();
      if (!this.inFlight) this.set({ phase: "hidden" });
      return;
    }
    if (!this.inFlight) this.scheduleAt(Math.max(this.clock.now(), this.lastStart + this.policy.baseMs));
  }

  /** Ask now (within the hour's budget), and at the usual pace from then on. */
  checkNow(): void {
    if (!this.on || !this.visible || this.inFlight) return;
    this.emptyInARow = 0;
    this.scheduleAt(this.clock.now());
  }

  /** The wait from one query's start to the next: longer while nothing arrives, or while queries fail. */
  private intervalMs(): number {
    const { baseMs, quietAfter, maxMs } = this.policy;
    const doublings = Math.max(this.failuresInARow, this.emptyInARow - quietAfter + 1, 0);
    return Math.min(maxMs, baseMs * 2 ** doublings);
  }

  private forgetOlderThanAnHour(): void {
    const hourAgo = this.clock.now() - HOUR_MS;
    while (this.sent.length > 0 && (this.sent[0] ?? 0) <= hourAgo) this.sent.shift();
  }

  /** When the hour's budget allows the next query: now, or when the oldest of the hour leaves it. */
  private budgetAllowsAt(): number {
    this.forgetOlderThanAnHour();
    if (this.sent.length < this.policy.budgetPerHour) return Number.NEGATIVE_INFINITY;
    return (this.sent[this.sent.length - this.policy.budgetPerHour] ?? 0) + HOUR_MS;
  }

  private scheduleAt(at: number): void {
    this.clearTimer();
    const budgetAt = this.budgetAllowsAt();
    const when = Math.max(at, budgetAt);
    const intervalMs = this.intervalMs();
    this.set(
      budgetAt > at
        ? { phase: "budget", nextAt: when }
        : { phase: "waiting", nextAt: when, intervalMs, quiet: this.emptyInARow >= this.policy.quietAfter },
    );
    this.timer = this.clock.setTimeout(() => void this.run(), Math.max(0, when - this.clock.now()));
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    if (!this.on || !this.visible || this.inFlight) return;
    if (this.budgetAllowsAt() > this.clock.now()) {
      this.scheduleAt(this.clock.now());
      return;
    }
    this.inFlight = true;
    this.lastStart = this.clock.now();
    this.sent.push(this.lastStart);
    this.set({ phase: "polling", intervalMs: this.intervalMs() });
    let result: PollResult;
    try {
      result = await this.poll();
    } catch {
      result = { kind: "failed", fatal: false };
    }
    this.inFlight = false;
    if (!this.on) return;
    if (result.kind === "quota") {
      this.on = false;
      this.set({ phase: "quota", resumeAt: result.resumeAt });
      return;
    }
    if (result.kind === "failed" && result.fatal) {
      this.on = false;
      this.set({ phase: "failed", fatal: true, nextAt: null });
      return;
    }
    if (result.kind === "failed") this.failuresInARow += 1;
    else {
      this.failuresInARow = 0;
      this.emptyInARow = result.arrived > 0 ? 0 : this.emptyInARow + 1;
    }
    if (!this.visible) {
      this.set({ phase: "hidden" });
      return;
    }
    const next = this.lastStart + this.intervalMs();
    if (result.kind === "failed") {
      this.scheduleAt(next);
      this.set({ phase: "failed", fatal: false, nextAt: next });
    } else this.scheduleAt(next);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private set(state: LiveState): void {
    this.current = state;
    this.onChange(state);
  }
}
