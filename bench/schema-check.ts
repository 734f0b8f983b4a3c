/**
 * Where compiling a message schema pays for itself (src/wire/schema-check.ts COMPILE_AFTER):
 * per message type, the time to compile its schema, one interpreted and one compiled check of
 * its valid fixture, and the number of checks after which compiling has paid back its cost.
 * Usage: bun bench/schema-check.ts [--checks 5000]
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { COMMAND_SCHEMAS, EVENT_SCHEMAS, RESPONSE_SCHEMA } from "../src/types/catalog.ts";
import { MESSAGE_FIXTURES } from "../test/types/fixtures.ts";

const checks = Number(process.argv[process.argv.indexOf("--checks") + 1]) || 5000;

function perCheckUs(check: () => boolean): number {
  for (let i = 0; i < 200; i++) check();
  const t = performance.now();
  for (let i = 0; i < checks; i++) check();
  return ((performance.now() - t) / checks) * 1000;
}

const rows: { type: string; compileMs: number; interpretedUs: number; compiledUs: number }[] = [];
for (const fixture of MESSAGE_FIXTURES) {
  const schema =
    fixture.type === "response"
      ? RESPONSE_SCHEMA
      : (fixture.direction === "command" ? COMMAND_SCHEMAS : EVENT_SCHEMAS).get(fixture.type);
  if (!schema) continue;
  const t = performance.now();
  const compiled = TypeCompiler.Compile(schema);
  const compileMs = performance.now() - t;
  const interpretedUs = perCheckUs(() => Value.Check(schema, fixture.valid));
  const compiledUs = perCheckUs(() => compiled.Check(fixture.valid));
  rows.push({ type: fixture.type, compileMs, interpretedUs, compiledUs });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log("| type | compile | interpreted check | compiled check | compiling pays after |");
for (const r of rows) {
  const saved = r.interpretedUs - r.compiledUs;
  const payback = saved > 0 ? `${Math.round((r.compileMs * 1000) / saved)} checks` : "never";
  console.log(
    `| ${r.type} | ${r.compileMs.toFixed(2)} ms | ${r.interpretedUs.toFixed(2)} µs | ${r.compiledUs.toFixed(2)} µs | ${payback} |`,
  );
}
const paybacks = rows
  .map((r) => (r.compileMs * 1000) / (r.interpretedUs - r.compiledUs))
  .filter((n) => n > 0 && Number.isFinite(n));
console.log(
  `median over ${rows.length} types: compile ${median(rows.map((r) => r.compileMs)).toFixed(2)} ms, interpreted ${median(rows.map((r) => r.interpretedUs)).toFixed(2)} µs, compiled ${median(rows.map((r) => r.compiledUs)).toFixed(2)} µs, pays after ${Math.round(median(paybacks))} checks (${rows.length - paybacks.length} types never)`,
);
