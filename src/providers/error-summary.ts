/**
 * Keeps a provider's error message readable wherever it is shown (terminal, web notice, logs):
 * an HTML error page (a proxy's or server's 500 page, which the SDKs put into the message whole)
 * becomes the status and its first line of text, and any message is cut to a bounded length.
 */

/** Longest message kept; a server can answer with megabytes. */
export const MAX_ERROR_MESSAGE_CHARS = 500;

const HTML = /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<title[\s>]/i;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function summarizeErrorMessage(message: string, status: number | undefined): string {
  const html = HTML.exec(message);
  if (html !== null)
    return cap(htmlSummary(message.slice(0, html.index).trim(), message.slice(html.index), status));
  return cap(message);
}

/** "500 Internal Server Error": the status, then the page's title or its first line of text. */
function htmlSummary(before: string, page: string, status: number | undefined): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(page)?.[1];
  const line = firstLine(title ?? "") || firstLine(textOf(page)) || "an HTML error page";
  // The SDKs put the status before the body ("500 <html…"); a title often repeats it.
  const lead = before !== "" ? before : status !== undefined ? String(status) : "";
  return lead === "" || line.startsWith(lead) ? line : `${lead} ${line}`;
}

function textOf(page: string): string {
  return page.replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, "\n").replace(/<[^>]*>/g, "\n");
}

function firstLine(text: string): string {
  for (const raw of text.split("\n")) {
    const line = decode(raw).replace(/\s+/g, " ").trim();
    if (line !== "") return line;
  }
  return "";
}

function decode(text: string): string {
  return text.replace(/&(#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function cap(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE_CHARS
    ? message
    : `${message.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…`;
}
