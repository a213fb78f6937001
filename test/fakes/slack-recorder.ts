// An append-only list that tests can await: waitFor resolves with the first item, past or future, that matches.
export class Recorder<T> {
  readonly items: T[] = [];
  private waiters: Array<{ match: (item: T) => boolean; resolve: (item: T) => void }> = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(item)) return true;
      w.resolve(item);
      return false;
    });
  }

  waitFor(match: (item: T) => boolean = () => true): Promise<T> {
    const seen = this.items.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  filter(match: (item: T) => boolean): T[] {
    return this.items.filter(match);
  }
}
