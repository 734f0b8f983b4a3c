/**
 * Injected into a benchmark page before the app loads (never shipped): timestamps, in the
 * page, (1) each WebSocket message as it arrives — a listener added in the socket's
 * constructor, so it runs before the app's own handler — and (2) each paint that followed a
 * DOM change: a MutationObserver sees the change, and a task posted from it runs once the
 * frame that drew it has been rendered. Deltas carry tokens `[d<n>]`; a token counts as
 * painted at the first such moment its text is in the transcript (the bench reads the text
 * once per paint, about 0.1 ms for 60 KB). A requestAnimationFrame
 * loop records frame times while `recording` is set.
 */
export interface ProbeState {
  received: number[];
  painted: number[];
  deltas: number;
  firstDeltaAt: number;
  lastDeltaAt: number;
  turnEndAt: number;
  frames: number[];
  recording: boolean;
  clickAt: number;
  messagesPaintedAt: number;
  messagesPainted: number;
  /** When set, `endPaintedAt` is the first paint whose transcript contains it. */
  endMarker: string;
  endPaintedAt: number;
}

declare global {
  interface Window {
    __benchProbe?: ProbeState;
  }
}

function probe(): void {
  const state: ProbeState = {
    received: [],
    painted: [],
    deltas: 0,
    firstDeltaAt: 0,
    lastDeltaAt: 0,
    turnEndAt: 0,
    frames: [],
    recording: false,
    clickAt: 0,
    messagesPaintedAt: 0,
    messagesPainted: 0,
    endMarker: "",
    endPaintedAt: 0,
  };
  window.__benchProbe = state;
  const token = /\[d(\d+)\]/;
  const Native = window.WebSocket;
  class ProbedWebSocket extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", (event) => {
        const at = performance.now();
        if (typeof event.data !== "string") return;
        if (event.data.includes('"type":"message_delta"')) {
          state.deltas += 1;
          if (state.firstDeltaAt === 0) state.firstDeltaAt = at;
          state.lastDeltaAt = at;
          const n = token.exec(event.data)?.[1];
          if (n !== undefined) state.received[Number(n)] = at;
        } else if (event.data.includes('"type":"turn_end"')) state.turnEndAt = at;
      });
    }
  }
  window.WebSocket = ProbedWebSocket;

  let nextUnpainted = 0;
  const afterPaint = new MessageChannel();
  let posted = false;
  afterPaint.port1.onmessage = () => {
    posted = false;
    const at = performance.now();
    if (state.clickAt !== 0 && state.messagesPaintedAt === 0) {
      const count = document.querySelectorAll('[data-testid="message"]').length;
      if (count > 0) {
        state.messagesPaintedAt = at;
        state.messagesPainted = count;
      }
    }
    const watchingEnd = state.endMarker !== "" && state.endPaintedAt === 0;
    if (nextUnpainted >= state.received.length && !watchingEnd) return;
    const text = document.querySelector('[data-testid="transcript"]')?.textContent ?? "";
    if (watchingEnd && text.includes(state.endMarker)) state.endPaintedAt = at;
    const last = text.lastIndexOf("[d");
    const shown = last < 0 ? -1 : Number(token.exec(text.slice(last))?.[1] ?? -1);
    while (nextUnpainted <= shown && nextUnpainted < state.received.length) {
      if (state.received[nextUnpainted] !== undefined) state.painted[nextUnpainted] = at;
      nextUnpainted += 1;
    }
  };
  new MutationObserver(() => {
    if (posted) return;
    posted = true;
    afterPaint.port2.postMessage(0);
  }).observe(document, { subtree: true, childList: true, characterData: true });

  document.addEventListener(
    "click",
    (event) => {
      if (event.target instanceof Element && event.target.closest('[data-testid="agent-row"]')) {
        state.clickAt = performance.now();
        state.messagesPaintedAt = 0;
      }
    },
    true,
  );

  const frame = (at: number) => {
    if (state.recording) state.frames.push(at);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The probe as a script for `Page.addScriptToEvaluateOnNewDocument`. */
export const PROBE_SCRIPT = `(${probe.toString()})();`;
