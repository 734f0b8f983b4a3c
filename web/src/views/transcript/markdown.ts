/**
 * Assistant text as Markdown. markdown-it parses (raw HTML off, so `<script>` or `<img onerror>`
 * in model text stays text), and the DOM is built from its tokens with `createElement` and
 * text nodes: no HTML string is ever parsed, so nothing in the text can become markup. Only
 * the elements Markdown produces are built, links keep only http(s) and mailto targets and open
 * in a new tab without an opener, and images are not loaded (they render as links). The parser
 * and its settings are in markdown-parser.ts.
 */

import { copyText } from "./copy-text.ts";
import { parser, type Token } from "./markdown-parser.ts";
import { isSafeHref } from "./safe-href.ts";

/** Elements a markdown-it token may open; anything else is dropped (its text is kept). */
const ELEMENTS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "blockquote",
  "em",
  "strong",
  "s",
  "a",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);

export function renderMarkdown(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  build(parser.parse(text, {}), fragment);
  return fragment;
}

/** Nodes for tokens of whole top-level blocks (a streaming reply's parts, markdown-stream.ts). */
export function drawMarkdown(tokens: readonly Token[]): Node[] {
  const fragment = document.createDocumentFragment();
  build(tokens, fragment);
  return [...fragment.childNodes];
}

function build(tokens: readonly Token[], root: Node): void {
  const stack: Node[] = [root];
  const top = () => stack[stack.length - 1] ?? root;
  for (const token of tokens) {
    if (token.nesting === 1) {
      // Paragraphs of tight lists are hidden: their text goes straight into the item.
      const element = token.hidden ? undefined : opened(token);
      if (element !== undefined) top().appendChild(element);
      stack.push(element ?? top());
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      leaf(token, top());
    }
  }
}

function opened(token: Token): HTMLElement | undefined {
  if (!ELEMENTS.has(token.tag)) return undefined;
  const element = document.createElement(token.tag);
  if (token.type === "link_open") {
    const href = token.attrGet("href");
    if (typeof href === "string" && isSafeHref(href)) {
      element.setAttribute("href", href);
      element.setAttribute("target", "_blank");
      element.setAttribute("rel", "noopener noreferrer");
    }
  } else if (token.type === "ordered_list_open") {
    const start = Number(token.attrGet("start"));
    if (Number.isInteger(start) && start > 1) element.setAttribute("start", String(start));
  }
  return element;
}

function leaf(token: Token, parent: Node): void {
  switch (token.type) {
    case "inline":
      build(token.children ?? [], parent);
      return;
    case "text":
    case "html_inline":
    case "html_block":
      parent.appendChild(document.createTextNode(token.content));
      return;
    case "softbreak":
      parent.appendChild(document.createTextNode("\n"));
      return;
    case "hardbreak":
      parent.appendChild(document.createElement("br"));
      return;
    case "hr":
      parent.appendChild(document.createElement("hr"));
      return;
    case "code_inline": {
      const code = document.createElement("code");
      code.textContent = token.content;
      parent.appendChild(code);
      return;
    }
    case "fence":
    case "code_block":
      parent.appendChild(codeBlock(token.content, token.info.trim().split(/\s+/)[0] ?? ""));
      return;
    default:
      if (token.content !== "") parent.appendChild(document.createTextNode(token.content));
  }
}

/**
 * A fenced block: a head with its language and a copy button (above the code, never over its
 * first line), then the code as text. Highlighting comes later (code-highlight.ts), once the
 * block is final; `data-lang` marks what to highlight it as.
 */
function codeBlock(text: string, lang: string): HTMLElement {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const block = document.createElement("div");
  block.className = "md-code-block";
  block.dataset.testid = "code-block";
  const head = document.createElement("div");
  head.className = "md-code-head";
  const label = document.createElement("span");
  label.className = "md-code-lang";
  label.dataset.testid = "code-lang";
  label.textContent = lang.slice(0, 32);
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "md-copy";
  copy.dataset.testid = "code-copy";
  copy.textContent = "Copy";
  copy.addEventListener("click", () => {
    void copyText(body).then((ok) => {
      copy.textContent = ok ? "Copied" : "Copy failed";
      setTimeout(() => {
        copy.textContent = "Copy";
      }, 1_500);
    });
  });
  head.append(label, copy);
  const pre = document.createElement("pre");
  pre.className = "md-code";
  const code = document.createElement("code");
  code.textContent = body;
  if (lang !== "") code.dataset.lang = lang.slice(0, 32).toLowerCase();
  pre.appendChild(code);
  block.append(head, pre);
  return block;
}
