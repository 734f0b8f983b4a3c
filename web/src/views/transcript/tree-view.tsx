/**
 * A `tree` descriptor as nested lists. The tree is untrusted data: it is drawn to a bounded
 * depth and node count, with a note for what was left out, so a hostile tree cannot hang the page.
 */
import { For, Show } from "solid-js";
import type { TreeNode } from "../../../../src/types/render.ts";

const MAX_DEPTH = 24;
const MAX_NODES = 1_000;

interface Drawn {
  name: string;
  kind: "file" | "dir";
  children: Drawn[];
  omitted: number;
}

export function TreeView(props: { root: TreeNode }) {
  const drawn = () => bounded(props.root);
  return (
    <ul class="tx-tree" data-testid="descriptor-tree">
      <TreeItem node={drawn()} />
    </ul>
  );
}

function TreeItem(props: { node: Drawn }) {
  return (
    <li data-kind={props.node.kind}>
      <span class={`tx-tree-name tx-${props.node.kind}`}>{props.node.name}</span>
      <Show when={props.node.children.length > 0 || props.node.omitted > 0}>
        <ul>
          <For each={props.node.children}>{(child) => <TreeItem node={child} />}</For>
          <Show when={props.node.omitted > 0}>
            <li class="muted">… {props.node.omitted} more</li>
          </Show>
        </ul>
      </Show>
    </li>
  );
}

/** A copy of the tree within the bounds, counting what each node had to leave out. */
function bounded(root: TreeNode): Drawn {
  let budget = MAX_NODES;
  const copy = (node: TreeNode, depth: number): Drawn => {
    budget--;
    const children = node.children ?? [];
    const drawn: Drawn = {
      name: node.name,
      kind: node.kind ?? (children.length > 0 ? "dir" : "file"),
      children: [],
      omitted: 0,
    };
    for (const child of children) {
      if (budget <= 0 || depth >= MAX_DEPTH) drawn.omitted++;
      else drawn.children.push(copy(child, depth + 1));
    }
    return drawn;
  };
  return copy(root, 0);
}
