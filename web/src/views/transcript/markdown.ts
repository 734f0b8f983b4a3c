/**
 * Assistant text as Markdown. markdown-it parses (raw HTML off, so `<script>` or `<img onerror>`
 * in model text stays text), and the DOM is built from its tokens with `createElement` and
 * text nodes: no HTML string is ever parsed, so nothing in the text can become markup. Only
 * the elements Markdown produces are built, links keep only http(s) and mailto targets and open
 * in a new tab without an opener, and images are not loaded (they render as links). The parser
 * and its settings are in markdown-parser.ts.
 */
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

function codeBlock(text: string, lang: string): HTMLElement {
  const pre = document.createElement("pre");
  pre.className = "md-code";
  if (lang !== "") pre.dataset.lang = lang.slice(0, 32);
  const code = document.createElement("code");
  code.textContent = text.endsWith("\n") ? text.slice(0, -1) : text;
  pre.appendChild(code);
  return pre;
}
