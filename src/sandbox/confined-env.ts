/**
 * The environment a confined command sees: the agent's, without the secrets a command could print
 * into a file the model reads (provider keys, cloud and registry tokens). Matched by name, since
 * values cannot be told apart from any other string.
 */
const SECRET_NAME = /(^|_)(API_?KEY|ACCESS_?KEY(_ID)?|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)($|_)/i;
const SECRET_NAMES = new Set(["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS"]);

export function confinedEnv(
  env: Record<string, string | undefined>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue;
    kept[name] = value;
  }
  return { ...kept, ...extra };
}

export function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name) || SECRET_NAME.test(name);
}
