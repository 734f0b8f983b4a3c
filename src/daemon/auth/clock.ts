/** Milliseconds since the epoch. Injected so tests can move time for expiry without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
