/**
 * The open agent's sandbox mode in its header: "sandbox: workspace-write", "sandbox: read-only"
 * or "unsandboxed", what that means in its tooltip. On a phone only the icon shows; the words
 * stay for screen readers. Under the header's menu (sandbox-control.tsx) it is only drawn: the
 * menu itself says the mode to a screen reader.
 */
import { Show } from "solid-js";
import type { SandboxState } from "../../../../src/types/sandbox.ts";
import { sandboxBadge, sandboxDescription } from "./sandbox-label.ts";

export function SandboxBadge(props: {
  sandbox: SandboxState | undefined;
  cwd: string | undefined;
  /** Drawn only (aria-hidden): a control over it speaks for it. */
  decorative?: boolean;
}) {
  return (
    <Show when={props.sandbox}>
      {(state) => (
        <span
          class="agent-meta sandbox-badge"
          data-testid="sandbox-badge"
          data-mode={state().mode}
          title={sandboxDescription(state(), props.cwd)}
          aria-hidden={props.decorative === true ? "true" : undefined}
        >
          <svg class="sandbox-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <Show
              when={state().mode !== "off"}
              fallback={<path d="M5 7V5a3 3 0 0 1 5.8-1M3 7h10v7H3z" fill="none" stroke="currentColor" />}
            >
              <path d="M5 7V5a3 3 0 0 1 6 0v2M3 7h10v7H3z" fill="none" stroke="currentColor" />
            </Show>
          </svg>
          <span class="sandbox-words">{sandboxBadge(state().mode)}</span>
        </span>
      )}
    </Show>
  );
}
