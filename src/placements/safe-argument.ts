/**
 * Values from placements.json that end up as arguments of ssh or a container engine. A value
 * starting with "-" would be read as an option (`-oProxyCommand=…` runs a command), so the
 * names are held to the characters a host, a user or an image can have.
 */

/** A DNS name, an IPv4 address or a bracket-free IPv6 address; an ssh_config Host alias too. */
const HOST = /^[A-Za-z0-9_][A-Za-z0-9._:%-]*$/;
/** A POSIX user name. */
const USER = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
/** An image reference (registry/name:tag@digest) or a container name. */
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/;

export function hostProblem(host: string): string | undefined {
  return HOST.test(host)
    ? undefined
    : `"host" must be a host name or address (letters, digits, . _ : % -, not starting with "-")`;
}

export function userProblem(user: string): string | undefined {
  return USER.test(user)
    ? undefined
    : `"user" must be a user name (letters, digits, . _ -, not starting with "-")`;
}

export function imageProblem(field: string, value: string): string | undefined {
  return IMAGE.test(value)
    ? undefined
    : `"${field}" must be an image or container name (letters, digits, . _ : / @ + -, not starting with "-")`;
}

/** A bind mount path: absolute, and free of the "," and ":" that separate the engine's fields. */
export function mountPathProblem(field: string, path: string): string | undefined {
  if (!path.startsWith("/")) return `"${field}" must be an absolute path`;
  if (/[,:\n]/.test(path)) return `"${field}" must not contain "," ":" or a newline`;
  return undefined;
}
