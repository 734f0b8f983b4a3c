/**
 * Browser notifications for needs-you signals: off until the user turns them on (a click that
 * asks the browser's permission), remembered in localStorage. Notification text is the agent's
 * name and what happened — never model text.
 */
import { createSignal } from "solid-js";

export const NOTIFY_KEY = "shard.notifications";

export interface Notifications {
  permission(): NotificationPermission | "unsupported";
  enabled(): boolean;
  /** Asks the browser (must run from a click); on "granted" notifications are on. */
  enable(): Promise<void>;
  disable(): void;
  /** `open` runs when the user clicks the notification. */
  show(title: string, body: string, tag: string, open: () => void): void;
}

function currentPermission(): NotificationPermission | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

export function createNotifications(): Notifications {
  const [permission, setPermission] = createSignal(currentPermission());
  const [optedIn, setOptedIn] = createSignal(localStorage.getItem(NOTIFY_KEY) === "on");
  return {
    permission,
    enabled: () => optedIn() && permission() === "granted",
    async enable() {
      if (typeof Notification === "undefined") return;
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer === "granted") {
        localStorage.setItem(NOTIFY_KEY, "on");
        setOptedIn(true);
      }
    },
    disable() {
      localStorage.removeItem(NOTIFY_KEY);
      setOptedIn(false);
    },
    show(title, body, tag, open) {
      if (currentPermission() !== "granted") return;
      const shown = new Notification(title, { body, tag });
      shown.onclick = () => {
        window.focus();
        open();
        shown.close();
      };
    },
  };
}
