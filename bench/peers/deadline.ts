/** Every wait of the benchmark has a deadline; a tool that hangs is recorded, never waited on forever. */

export class BenchTimeout extends Error {}

export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BenchTimeout(`timed out after ${Math.round(ms / 1000)} s ${what}`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
