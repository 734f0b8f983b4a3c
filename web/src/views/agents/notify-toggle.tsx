/** Turns browser notifications for needs-you signals on (asking the browser) or off. */
import { Match, Switch } from "solid-js";
import type { Notifications } from "./notifications.ts";

export function NotifyToggle(props: { notifications: Notifications }) {
  return (
    <Switch>
      <Match when={props.notifications.permission() === "unsupported"}>{null}</Match>
      <Match when={props.notifications.enabled()}>
        <button
          type="button"
          class="link"
          data-testid="notifications-toggle"
          data-enabled="true"
          title="Notifications are on for agents that wait for you, finish or fail"
          onClick={() => props.notifications.disable()}
        >
          notifications on
        </button>
      </Match>
      <Match when={props.notifications.permission() === "denied"}>
        <span
          class="muted"
          data-testid="notifications-toggle"
          data-enabled="false"
          title="Allow them in the browser's site settings"
        >
          notifications blocked
        </span>
      </Match>
      <Match when={true}>
        <button
          type="button"
          class="link"
          data-testid="notifications-toggle"
          data-enabled="false"
          onClick={() => void props.notifications.enable()}
        >
          enable notifications
        </button>
      </Match>
    </Switch>
  );
}
