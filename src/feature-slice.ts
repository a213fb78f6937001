// What each feature's wiring file returns: the services it adds to the core, and how the bot starts and stops them.

export interface FeatureSlice<T extends object> {
  /** The members this feature adds to the core's Services. */
  services: T;
  /** Starts the feature's timers and loops; the bot calls it once the platforms are up. */
  start?(): void;
  /** Stops them (and waits for work in flight); called before the database closes. */
  stop?(): Promise<void>;
}
