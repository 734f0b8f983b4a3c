/**
 * Friendly aliases for children (docs/protocol.md §10.4): display-only names from a fixed pool,
 * unique among one parent's children, compared case-insensitively after NFKC. They are never ids.
 */
const NAME_POOL = [
  "ada",
  "basil",
  "cedar",
  "dune",
  "ember",
  "fern",
  "garnet",
  "hazel",
  "iris",
  "juniper",
  "kestrel",
  "linden",
  "moss",
  "nova",
  "onyx",
  "pine",
  "quill",
  "reed",
  "sage",
  "tansy",
  "umber",
  "vale",
  "willow",
  "yarrow",
  "zinnia",
] as const;

/** The comparison key of an alias or a handle. */
export function foldAlias(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** `count` aliases none of which folds to one in `taken`; past the pool, `name-2`, `name-3`, … */
export function reserveAliases(taken: ReadonlySet<string>, count: number): string[] {
  const out: string[] = [];
  const used = new Set(taken);
  for (let round = 1; out.length < count; round++) {
    for (const name of NAME_POOL) {
      if (out.length === count) break;
      const alias = round === 1 ? name : `${name}-${round}`;
      if (used.has(foldAlias(alias))) continue;
      used.add(foldAlias(alias));
      out.push(alias);
    }
  }
  return out;
}
