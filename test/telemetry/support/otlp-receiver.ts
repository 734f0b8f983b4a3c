/**
 * A local OTLP/HTTP collector for tests: a Bun.serve on 127.0.0.1 that keeps every export
 * request's path, content type and raw bytes, and answers 200 as a collector does.
 */

export interface OtlpRequest {
  path: string;
  contentType: string;
  body: Uint8Array;
}

export interface OtlpReceiver {
  /** e.g. http://127.0.0.1:PORT, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  requests: OtlpRequest[];
  /** Every byte received, for checks that some text never left the process. */
  allBytes(): Uint8Array;
  close(): Promise<void>;
}

export function startOtlpReceiver(): OtlpReceiver {
  const requests: OtlpRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const contentType = request.headers.get("content-type") ?? "";
      requests.push({ path: url.pathname, contentType, body: new Uint8Array(await request.arrayBuffer()) });
      const json = contentType.includes("json");
      return new Response(json ? "{}" : new Uint8Array(), {
        headers: { "content-type": json ? "application/json" : "application/x-protobuf" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    allBytes: () => Buffer.concat(requests.map((r) => r.body)),
    close: () => server.stop(true),
  };
}
