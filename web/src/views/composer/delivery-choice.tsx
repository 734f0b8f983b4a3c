/**
 * While a turn runs, how a message is delivered — the choice is explicit (docs/protocol.md §6):
 * steer lands in the running turn after its current tool calls, follow-up waits until the agent
 * stops. A radio group (arrow keys move within it); Alt+S / Alt+F pick from the composer.
 */
import { For } from "solid-js";
import type { StreamingBehavior } from "../../../../src/types/agent-commands.ts";

const CHOICES: { value: StreamingBehavior; label: string; key: string; hint: string }[] = [
  { value: "steer", label: "Steer", key: "Alt+S", hint: "into the running turn, before its next model call" },
  { value: "follow_up", label: "Follow-up", key: "Alt+F", hint: "after the agent stops" },
];

export function DeliveryChoice(props: {
  value: StreamingBehavior;
  onChange: (value: StreamingBehavior) => void;
}) {
  return (
    <fieldset class="delivery" data-testid="delivery">
      <legend>Deliver</legend>
      <For each={CHOICES}>
        {(choice) => (
          <label
            class="delivery-option"
            classList={{ selected: props.value === choice.value }}
            title={choice.hint}
          >
            <input
              type="radio"
              name="delivery"
              value={choice.value}
              checked={props.value === choice.value}
              aria-keyshortcuts={choice.key}
              data-testid={`delivery-${choice.value}`}
              onChange={() => props.onChange(choice.value)}
            />
            <span>{choice.label}</span>
            <kbd>{choice.key}</kbd>
          </label>
        )}
      </For>
      <span class="muted delivery-hint">{CHOICES.find((c) => c.value === props.value)?.hint}</span>
    </fieldset>
  );
}

/** The delivery an Alt+S / Alt+F key press picks, if it is one. */
export function deliveryShortcut(event: KeyboardEvent): StreamingBehavior | undefined {
  if (!event.altKey || event.ctrlKey || event.metaKey) return undefined;
  if (event.code === "KeyS") return "steer";
  if (event.code === "KeyF") return "follow_up";
  return undefined;
}
