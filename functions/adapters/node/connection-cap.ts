// The connection cap of one server process (issue 42, item 5): past it, a new connection takes the
// place of the longest-idle one (an idle keep-alive connection, or one that never sent a request),
// so that 2,000 idle sockets cannot keep a real client out; it is refused only when every
// connection has a request in flight. Pure bookkeeping: the server closes what it is told to.

export type Admission<C> = { accepted: true; evict: C | null } | { accepted: false };

export class ConnectionCap<C> {
  /** Connections with no request in flight, longest idle first (a Map keeps insertion order). */
  private readonly idle = new Map<C, true>();
  /** Connections with requests in flight, and how many (pipelined requests overlap). */
  private readonly busy = new Map<C, number>();

  constructor(readonly max: number) {}

  get open(): number {
    return this.idle.size + this.busy.size;
  }

  /**
   * A new connection: accepted (counted as idle: it has sent no request), at the cost of the
   * longest-idle connection when the cap is reached (`evict`, no longer counted: close it);
   * refused when every open connection has a request in flight.
   */
  admit(c: C): Admission<C> {
    let evict: C | null = null;
    if (this.open >= this.max) {
      const oldest = this.idle.keys().next();
      if (oldest.done) return { accepted: false };
      evict = oldest.value;
      this.idle.delete(evict);
    }
    this.idle.set(c, true);
    return { accepted: true, evict };
  }

  /** A request on `c` began (its headers are in). Unknown connections (evicted, refused) are ignored. */
  requestStarted(c: C): void {
    const n = this.busy.get(c);
    if (n !== undefined) this.busy.set(c, n + 1);
    else if (this.idle.delete(c)) this.busy.set(c, 1);
  }

  /** A response on `c` was sent or abandoned; with none left in flight, `c` is now the most recently idle. */
  requestEnded(c: C): void {
    const n = this.busy.get(c);
    if (n === undefined) return;
    if (n > 1) return void this.busy.set(c, n - 1);
    this.busy.delete(c);
    this.idle.set(c, true);
  }

  /** `c` closed (by either side). */
  closed(c: C): void {
    this.idle.delete(c);
    this.busy.delete(c);
  }
}
