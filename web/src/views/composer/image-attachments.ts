/**
 * Images pasted or dropped into the composer, read into the protocol's `Image` shape
 * (`{type: "image", data: base64, mime_type}`). Bounded so a prompt always fits one WebSocket
 * frame (the daemon's default limit is 16 MiB; base64 adds a third): a few raster images of a
 * few megabytes each. Anything else is refused with a `{code, message}` that says what to do.
 */
import type { Image } from "../../../../src/types/messages.ts";

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_TOTAL_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_IMAGES = 8;
/** Raster formats the providers take; SVG is refused (it is a document, not a picture). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export interface Attachment {
  id: number;
  name: string;
  bytes: number;
  image: Image;
}

export interface AttachError {
  code: "IMAGE_TYPE" | "IMAGE_TOO_LARGE" | "TOO_MANY_IMAGES" | "IMAGE_UNREADABLE";
  message: string;
}

let nextId = 0;

/**
 * Reads `files` on top of `current`; returns what was added and, for the first file refused,
 * why. Files after a refusal are still read when they fit.
 */
export async function readImages(
  files: readonly File[],
  current: readonly Attachment[],
): Promise<{ added: Attachment[]; error?: AttachError }> {
  const added: Attachment[] = [];
  let error: AttachError | undefined;
  let count = current.length;
  let total = current.reduce((sum, a) => sum + a.bytes, 0);
  for (const file of files) {
    const refusal = check(file, count, total);
    if (refusal !== undefined) {
      error ??= refusal;
      continue;
    }
    try {
      const data = await base64Of(file);
      added.push({
        id: ++nextId,
        name: file.name,
        bytes: file.size,
        image: { type: "image", data, mime_type: file.type },
      });
      count += 1;
      total += file.size;
    } catch {
      error ??= {
        code: "IMAGE_UNREADABLE",
        message: `${label(file)} could not be read; save it as a file and drop it again.`,
      };
    }
  }
  return error !== undefined ? { added, error } : { added };
}

function check(file: File, count: number, total: number): AttachError | undefined {
  if (!IMAGE_TYPES.has(file.type)) {
    return {
      code: "IMAGE_TYPE",
      message: `${label(file)} is not a PNG, JPEG, GIF or WebP image; convert it to one of those and add it again.`,
    };
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return {
      code: "IMAGE_TOO_LARGE",
      message: `${label(file)} is ${megabytes(file.size)}; an image may be at most ${megabytes(MAX_IMAGE_BYTES)}. Resize or crop it and add it again.`,
    };
  }
  if (count >= MAX_IMAGES) {
    return {
      code: "TOO_MANY_IMAGES",
      message: `a message can carry at most ${MAX_IMAGES} images; remove one before adding ${label(file)}.`,
    };
  }
  if (total + file.size > MAX_TOTAL_IMAGE_BYTES) {
    return {
      code: "IMAGE_TOO_LARGE",
      message: `with ${label(file)} the images would come to ${megabytes(total + file.size)}; together they may be at most ${megabytes(MAX_TOTAL_IMAGE_BYTES)}. Remove or shrink one.`,
    };
  }
  return undefined;
}

/** The files of a paste or drop; a paste of plain text has none. */
export function filesOf(data: DataTransfer | null): File[] {
  return data === null ? [] : [...data.files];
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : "";
      const comma = url.indexOf(",");
      if (comma < 0) reject(new Error("not a data URL"));
      else resolve(url.slice(comma + 1));
    };
    reader.readAsDataURL(file);
  });
}

function label(file: File): string {
  return file.name === "" || file.name === "image.png" ? "the pasted image" : `“${file.name}”`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
