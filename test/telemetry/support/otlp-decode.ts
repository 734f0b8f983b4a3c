/**
 * Reads what the OTLP exporters sent, in either encoding, into one shape the tests assert on.
 * Protobuf is decoded from the wire format with the field numbers of the OTLP .proto files
 * (opentelemetry/proto/trace/v1/trace.proto, metrics/v1/metrics.proto, common/v1/common.proto).
 */
import type { OtlpRequest } from "./otlp-receiver.ts";

export type AttrValue = string | number | boolean;

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** 2 = error (Status.code). */
  statusCode: number;
  attributes: Record<string, AttrValue>;
  resource: Record<string, AttrValue>;
}

export function spansOf(requests: OtlpRequest[]): ReceivedSpan[] {
  return requests
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => (r.contentType.includes("json") ? jsonSpans(r.body) : protobufSpans(r.body)));
}

export function metricNamesOf(requests: OtlpRequest[]): string[] {
  return requests
    .filter((r) => r.path === "/v1/metrics")
    .flatMap((r) => (r.contentType.includes("json") ? jsonMetricNames(r.body) : protobufMetricNames(r.body)));
}

// ---- JSON (the OTLP/JSON mapping: ids as hex, int64 maybe as strings) ----

// biome-ignore lint/suspicious/noExplicitAny: the parsed OTLP/JSON body; read field by field below.
type Json = any;

function jsonAttributes(list: Json[] | undefined): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kv of list ?? []) {
    const v = kv.value ?? {};
    if ("stringValue" in v) out[kv.key] = v.stringValue;
    else if ("boolValue" in v) out[kv.key] = v.boolValue;
    else if ("intValue" in v) out[kv.key] = Number(v.intValue);
    else if ("doubleValue" in v) out[kv.key] = Number(v.doubleValue);
  }
  return out;
}

function jsonSpans(body: Uint8Array): ReceivedSpan[] {
  const parsed: Json = JSON.parse(new TextDecoder().decode(body));
  const spans: ReceivedSpan[] = [];
  for (const rs of parsed.resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        spans.push({
          name: s.name,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          statusCode: s.status?.code ?? 0,
          attributes: jsonAttributes(s.attributes),
          resource,
        });
  }
  return spans;
}

function jsonMetricNames(body: Uint8Array): string[] {
  const parsed: Json = JSON.parse(new TextDecoder().decode(body));
  const names: string[] = [];
  for (const rm of parsed.resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) names.push(m.name);
  return names;
}

// ---- protobuf wire format ----

type Field = { no: number; varint?: bigint; bytes?: Uint8Array; fixed64?: Uint8Array };

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error("truncated varint");
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, varint: varint() });
    else if (wire === 1) {
      out.push({ no, fixed64: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : "");
const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString("hex") : "");
const sub = (f: Field[], no: number) =>
  f.filter((x) => x.no === no && x.bytes).map((x) => x.bytes as Uint8Array);

function protobufAttributes(list: Uint8Array[]): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kvBytes of list) {
    const kv = fields(kvBytes);
    const key = text(sub(kv, 1)[0]);
    const value = fields(sub(kv, 2)[0] ?? new Uint8Array());
    for (const v of value) {
      if (v.no === 1) out[key] = text(v.bytes);
      else if (v.no === 2) out[key] = v.varint === 1n;
      else if (v.no === 3) out[key] = Number(BigInt.asIntN(64, v.varint ?? 0n));
      else if (v.no === 4 && v.fixed64) out[key] = Buffer.from(v.fixed64).readDoubleLE(0);
    }
  }
  return out;
}

function protobufSpans(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of sub(fields(body), 1)) {
    const rsFields = fields(rs);
    const resource = protobufAttributes(sub(fields(sub(rsFields, 1)[0] ?? new Uint8Array()), 1));
    for (const ss of sub(rsFields, 2))
      for (const spanBytes of sub(fields(ss), 2)) {
        const s = fields(spanBytes);
        const status = fields(sub(s, 15)[0] ?? new Uint8Array());
        spans.push({
          name: text(sub(s, 5)[0]),
          traceId: hex(sub(s, 1)[0]),
          spanId: hex(sub(s, 2)[0]),
          parentSpanId: hex(sub(s, 4)[0]),
          statusCode: Number(status.find((f) => f.no === 3)?.varint ?? 0n),
          attributes: protobufAttributes(sub(s, 9)),
          resource,
        });
      }
  }
  return spans;
}

function protobufMetricNames(body: Uint8Array): string[] {
  const names: string[] = [];
  for (const rm of sub(fields(body), 1))
    for (const sm of sub(fields(rm), 2))
      for (const m of sub(fields(sm), 2)) names.push(text(sub(fields(m), 1)[0]));
  return names;
}
