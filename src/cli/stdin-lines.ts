/** Lines typed on stdin, split on LF only (one trailing CR stripped); ends at EOF. */
export async function* stdinLines(
  stream: ReadableStream<Uint8Array> = Bun.stdin.stream(),
): AsyncGenerator<string> {
  const utf8 = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += utf8.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      yield line.endsWith("\r") ? line.slice(0, -1) : line;
      newline = buffered.indexOf("\n");
    }
  }
  buffered += utf8.decode();
  if (buffered !== "") yield buffered;
}
