/**
 * The enrollment link as a QR code for the terminal, so a phone pairs in one scan. Half-block
 * characters draw two module rows per line; light modules are the blocks, which reads right on
 * the usual light-on-dark terminal. `uqr` (MIT, no dependencies) does the encoding.
 */
import { renderUnicodeCompact } from "uqr";

/** A two-module quiet zone: wide enough for phone cameras, narrow enough for an 80-column terminal. */
const BORDER = 2;

export function enrollmentQr(url: string): string {
  return `${renderUnicodeCompact(url, { ecc: "L", border: BORDER })}\n`;
}

/** Printed only to a terminal: a pipe or a log file gets the link alone. */
export function writeEnrollmentQr(url: string, out: { isTTY?: boolean; write(text: string): unknown }): void {
  if (out.isTTY === true) out.write(enrollmentQr(url));
}
