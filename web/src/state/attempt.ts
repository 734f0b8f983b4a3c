/**
 * The outcome of a command the page ran for a view: its value, or the error the daemon (or the
 * connection's result check) gave, as text. A view that lists things shows the error in place
 * of the list, so a failed or malformed answer never reads as "nothing here".
 */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: string };

/** The value, once it has been loaded (undefined while loading or after a failure). */
export function loaded<T>(attempt: Attempt<T> | undefined): T | undefined {
  return attempt?.ok === true ? attempt.value : undefined;
}

/** The error text of a failed attempt. */
export function failed(attempt: Attempt<unknown> | undefined): string | undefined {
  return attempt?.ok === false ? attempt.error : undefined;
}
