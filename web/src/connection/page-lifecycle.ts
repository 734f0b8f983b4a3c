/**
 * The moments a page waiting to reconnect should try at once instead of sitting out its
 * backoff: the network came back (`online`), the tab was shown again (`visibilitychange`; a
 * hidden tab's timers are throttled to a minute), or it was restored from the back-forward
 * cache (`pageshow` with `persisted`). Returns the function that removes the listeners.
 */
export function onPageWake(wake: () => void): () => void {
  const visible = () => {
    if (document.visibilityState === "visible") wake();
  };
  const shown = (event: PageTransitionEvent) => {
    if (event.persisted) wake();
  };
  window.addEventListener("online", wake);
  document.addEventListener("visibilitychange", visible);
  window.addEventListener("pageshow", shown);
  return () => {
    window.removeEventListener("online", wake);
    document.removeEventListener("visibilitychange", visible);
    window.removeEventListener("pageshow", shown);
  };
}
