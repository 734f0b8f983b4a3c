/** Thumbnails of the images a message will carry, each with a remove button. */
import { For } from "solid-js";
import type { Attachment } from "./image-attachments.ts";

export function AttachmentStrip(props: { attachments: Attachment[]; onRemove: (id: number) => void }) {
  return (
    <ul class="attachments" aria-label="attached images" data-testid="attachments">
      <For each={props.attachments}>
        {(attachment) => (
          <li class="attachment" data-testid="attachment">
            {/* A data: URL of an allow-listed raster type (CSP img-src allows data:). */}
            <img
              src={`data:${attachment.image.mime_type};base64,${attachment.image.data}`}
              alt={attachment.name || "pasted image"}
            />
            <button
              type="button"
              class="remove"
              aria-label={`remove ${attachment.name || "pasted image"}`}
              data-testid="attachment-remove"
              onClick={() => props.onRemove(attachment.id)}
            >
              ×
            </button>
          </li>
        )}
      </For>
    </ul>
  );
}
