/** A dollar amount as messages show it: cents from $1, four decimals below. */
export function usdText(amount: number): string {
  return amount >= 1 || amount === 0 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}
