/**
 * One word for a POSIX shell: ssh hands the remote command to the login shell as one string, so
 * every argument is single-quoted. A leading `~/` stays outside the quotes as `"$HOME"/`, so a
 * path like `~/.shard/bin/shard` still means the remote user's home.
 */
export function shellWord(word: string): string {
  if (word.startsWith("~/")) return `"$HOME"/${quote(word.slice(2))}`;
  return quote(word);
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
