/**
 * HTTP/1.1 over a raw TCP socket, so a test controls every header byte: Host (or none at all),
 * Origin, Sec-WebSocket-Protocol, and the source address. An upgrade is read up to the end of
 * its response headers.
 */
import { createConnection } from "node:net";

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps every value. */
  headers: Map<string, string[]>;
  body: string;
  header(name: string): string | undefined;
}

export interface RawRequest {
  method?: string;
  path: string;
  /** In order; `undefined` values are left out. Host is NOT added for you. */
  headers: Record<string, string | undefined>;
  body?: string;
  /** "1.1" unless given; HTTP/1.0 allows a request without Host. */
  httpVersion?: "1.0" | "1.1";
  /** The source address, e.g. "127.0.0.7" (all of 127/8 is loopback); the kernel's choice if unset. */
  localAddress?: string;
}

export async function rawRequest(port: number, request: RawRequest): Promise<RawResponse> {
  const lines = [`${request.method ?? "GET"} ${request.path} HTTP/${request.httpVersion ?? "1.1"}`];
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) lines.push(`${name}: ${value}`);
  const body = request.body ?? "";
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  const isUpgrade = Object.keys(request.headers).some((n) => n.toLowerCase() === "upgrade");
  if (!isUpgrade) lines.push("Connection: close");
  const text = `${lines.join("\r\n")}\r\n\r\n${body}`;

  let received = Buffer.alloc(0);
  let settle!: (r: RawResponse) => void;
  let fail!: (e: Error) => void;
  const done = new Promise<RawResponse>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const tryParse = (closed: boolean) => {
    const end = received.indexOf("\r\n\r\n");
    if (end < 0) {
      if (closed)
        fail(new Error(`connection closed before a response: ${JSON.stringify(received.toString())}`));
      return;
    }
    const parsed = parseHead(received.subarray(0, end).toString("latin1"));
    const rest = received.subarray(end + 4);
    const length = Number(parsed.header("content-length") ?? Number.NaN);
    if (parsed.status === 101) return settle({ ...parsed, body: "" });
    if (Number.isFinite(length) && rest.length >= length)
      return settle({ ...parsed, body: rest.subarray(0, length).toString() });
    if (closed) settle({ ...parsed, body: rest.toString() });
  };
  const socket = createConnection({
    host: "127.0.0.1",
    port,
    ...(request.localAddress !== undefined ? { localAddress: request.localAddress } : {}),
  });
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    tryParse(false);
  });
  socket.on("close", () => tryParse(true));
  socket.on("error", (err) => fail(err));
  socket.write(text);
  try {
    return await done;
  } finally {
    socket.end();
  }
}

function parseHead(head: string): Omit<RawResponse, "body"> {
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Map<string, string[]>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { status, headers, header: (name) => headers.get(name.toLowerCase())?.[0] };
}

/** The headers of a WebSocket upgrade request; pass `protocols` as the client would offer them. */
export function upgradeHeaders(host: string | undefined, origin: string | undefined, protocols?: string) {
  return {
    Host: host,
    Upgrade: "websocket",
    Connection: "Upgrade",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version": "13",
    Origin: origin,
    "Sec-WebSocket-Protocol": protocols,
  };
}
