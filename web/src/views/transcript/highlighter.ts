/**
 * Syntax highlighting for code blocks, loaded on first use (a chunk of its own, fetched from the
 * page's origin as `script-src 'self'` requires). highlight.js is regex-based (no eval, no WASM)
 * and marks tokens with classes, not inline styles (`style-src 'self'`). Its output is HTML
 * text; it is never given to the page's parser. It is read in an inert document (DOMParser: no
 * scripts, no loads) and rebuilt from text nodes and `<span>`s whose classes are only hljs
 * token names, so whatever the code says, and whatever the highlighter might get wrong, the
 * result is text in coloured spans.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  ini,
  java,
  javascript,
  json,
  markdown,
  python,
  ruby,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Longer code stays plain: highlighting it would be one long task. */
const MAX_HIGHLIGHT_CHARS = 20_000;
const TOKEN_CLASS = /^hljs-[a-z_-]{1,40}$/;

/** Replaces the text of `code` with its highlighted form; unknown languages stay plain. */
export function highlightInto(code: HTMLElement, text: string, lang: string): void {
  if (text.length > MAX_HIGHLIGHT_CHARS || hljs.getLanguage(lang) === undefined) return;
  const html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
  const inert = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const nodes = rebuilt(inert.body.childNodes);
  // Only ever what the code already said, in spans: a mismatch means something went wrong.
  const fragment = document.createDocumentFragment();
  fragment.append(...nodes);
  if (fragment.textContent !== text) return;
  code.replaceChildren(fragment);
  code.classList.add("hljs");
}

function rebuilt(nodes: NodeListOf<ChildNode>): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      out.push(document.createTextNode(node.textContent ?? ""));
    } else if (node instanceof Element && node.tagName === "SPAN") {
      const span = document.createElement("span");
      for (const name of node.classList) if (TOKEN_CLASS.test(name)) span.classList.add(name);
      span.append(...rebuilt(node.childNodes));
      out.push(span);
    } else {
      out.push(document.createTextNode(node.textContent ?? ""));
    }
  }
  return out;
}
