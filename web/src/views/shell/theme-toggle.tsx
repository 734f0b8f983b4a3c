/** Switches between the dark and light theme; the choice outlives a reload. */
import type { createTheme } from "./theme.ts";

export function ThemeToggle(props: { theme: ReturnType<typeof createTheme> }) {
  const next = () => (props.theme.theme() === "dark" ? "light" : "dark");
  return (
    <button
      type="button"
      class="icon-button"
      data-testid="theme-toggle"
      data-theme={props.theme.theme()}
      aria-label={`switch to the ${next()} theme`}
      title={`switch to the ${next()} theme`}
      onClick={() => props.theme.toggle()}
    >
      {props.theme.theme() === "dark" ? "☾" : "☀"}
    </button>
  );
}
