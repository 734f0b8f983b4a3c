/**
 * Dark or light: the system's `prefers-color-scheme` until the user picks one with the toggle,
 * which is remembered in localStorage. The choice is the `data-theme` attribute on <html>
 * (styles.css keys its colours on it), so no inline style is needed under the page's CSP.
 */
import { createSignal, onCleanup } from "solid-js";

export type Theme = "dark" | "light";
export const THEME_KEY = "shard.theme";

function stored(): Theme | undefined {
  const value = localStorage.getItem(THEME_KEY);
  return value === "dark" || value === "light" ? value : undefined;
}

function systemTheme(): Theme {
  return window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

export function createTheme(): { theme: () => Theme; toggle(): void } {
  const [theme, setTheme] = createSignal<Theme>(stored() ?? systemTheme());
  const chosen = stored();
  if (chosen !== undefined) document.documentElement.dataset.theme = chosen;
  // Until the user picks one, follow the system as it changes.
  const query = window.matchMedia("(prefers-color-scheme: light)");
  const onSystemChange = () => {
    if (stored() === undefined) setTheme(systemTheme());
  };
  query.addEventListener("change", onSystemChange);
  onCleanup(() => query.removeEventListener("change", onSystemChange));
  return {
    theme,
    toggle() {
      const next: Theme = theme() === "dark" ? "light" : "dark";
      localStorage.setItem(THEME_KEY, next);
      document.documentElement.dataset.theme = next;
      setTheme(next);
    },
  };
}
