/** A `code` descriptor: the file's path and language as a header, the text as text. */
import { Show } from "solid-js";
import { ClippedText } from "./clipped-text.tsx";

export function CodeView(props: { partKey: string; text: string; path?: string; lang?: string }) {
  const lang = () => props.lang ?? languageOf(props.path);
  return (
    <div class="tx-code" data-testid="descriptor-code">
      <Show when={props.path !== undefined || lang() !== undefined}>
        <div class="tx-file-head">
          <span class="tx-path" data-testid="code-path">
            {props.path ?? ""}
          </span>
          <Show when={lang()}>{(name) => <span class="tx-lang">{name()}</span>}</Show>
        </div>
      </Show>
      <Show when={props.text !== ""} fallback={<p class="muted tx-empty">(empty)</p>}>
        <ClippedText partKey={props.partKey} text={props.text} class="tx-code-text" />
      </Show>
    </div>
  );
}

const LANGUAGES: Record<string, string> = {
  ts: "TypeScript",
  tsx: "TSX",
  js: "JavaScript",
  jsx: "JSX",
  mjs: "JavaScript",
  json: "JSON",
  md: "Markdown",
  py: "Python",
  rs: "Rust",
  go: "Go",
  sh: "Shell",
  bash: "Shell",
  css: "CSS",
  html: "HTML",
  yml: "YAML",
  yaml: "YAML",
  toml: "TOML",
  c: "C",
  h: "C",
  cpp: "C++",
  java: "Java",
  rb: "Ruby",
  sql: "SQL",
  txt: "Text",
};

function languageOf(path: string | undefined): string | undefined {
  const ext = path?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  return ext !== undefined ? LANGUAGES[ext] : undefined;
}
