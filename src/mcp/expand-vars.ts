/**
 * `${VAR}` and `${VAR:-default}` references in an MCP server's `env` values and `headers`,
 * expanded from the runtime's environment. An unset variable without a default is an error
 * naming the variable (never its value, nor the text around it, which may be a secret).
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Expansion = { ok: true; value: string } | { ok: false; missing: string };

export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  let missing: string | undefined;
  const value = text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing ??= name;
    return "";
  });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}
