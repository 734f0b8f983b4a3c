/**
 * A data: URL for an image block, only for raster types a browser decodes as pictures (an SVG
 * could carry script if it were ever opened as a document) and only for base64 data.
 */
const RASTER = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function safeImageSource(mimeType: string, data: string): string | undefined {
  const type = mimeType.toLowerCase();
  if (!RASTER.has(type) || !BASE64.test(data)) return undefined;
  return `data:${type};base64,${data}`;
}
