/** The message of a thrown value, whatever was thrown (an Error, a string, anything). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
