/**
 * Builds the publishable package into dist/sdk/ (beside the binary, outside the type-checked
 * sources): one ESM bundle (Shard's protocol types,
 * wire and snapshot code and TypeBox inside it, so it has no dependencies) that runs under
 * Bun and Node, the declarations, and a package.json pointing at them. Publish from there:
 *   bun sdk/scripts/build.ts && (cd dist/sdk && npm publish --access public)
 * `--outdir DIR` builds elsewhere (the package test does).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import rootPkg from "../../package.json" with { type: "json" };
import pkg from "../package.json" with { type: "json" };

const root = resolve(import.meta.dir, "../..");
const sdk = join(root, "sdk");
const outAt = process.argv.indexOf("--outdir");
const dist = outAt > 0 ? resolve(process.argv[outAt + 1] ?? "") : join(root, "dist/sdk");
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const built = await Bun.build({
  entrypoints: [join(sdk, "src/index.ts")],
  outdir: dist,
  target: "node",
  format: "esm",
  naming: "index.js",
});
if (!built.success) {
  for (const log of built.logs) console.error(log);
  process.exit(1);
}

const tsconfig = join(dist, "tsconfig.build.json");
writeFileSync(
  tsconfig,
  JSON.stringify({
    extends: join(root, "tsconfig.json"),
    compilerOptions: {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: root,
      outDir: join(dist, "types"),
      typeRoots: [join(root, "node_modules")],
    },
    include: [],
    files: [join(sdk, "src/index.ts")],
  }),
);
const tsc = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "-p", tsconfig], {
  stdout: "inherit",
  stderr: "inherit",
});
rmSync(tsconfig);
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);

writeFileSync(
  join(dist, "package.json"),
  `${JSON.stringify(
    {
      name: pkg.name,
      version: pkg.version,
      description: pkg.description,
      type: "module",
      exports: { ".": { types: "./types/sdk/src/index.d.ts", default: "./index.js" } },
      engines: pkg.engines,
      // The runtime is bundled; the declarations name TypeBox's `Static` types.
      dependencies: { "@sinclair/typebox": rootPkg.dependencies["@sinclair/typebox"] },
    },
    null,
    2,
  )}\n`,
);
cpSync(join(sdk, "README.md"), join(dist, "README.md"));
console.log(`built ${dist}`);
