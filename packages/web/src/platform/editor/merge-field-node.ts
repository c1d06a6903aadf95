/**
 * A merge field in rich text: an atomic inline node (a chip), selected and deleted as one piece, never edited letter
 * by letter. It reads and writes the chip markup the server renders (`span[data-merge-field]` with its parameters
 * as JSON in `data-merge-params`, shared/communications/merge-fields.rules.ts).
 */
import { MERGE_CHIP_ATTR, MERGE_PARAMS_ATTR } from '@guildhall/shared';
import { mergeAttributes, Node } from '@tiptap/core';

export interface MergeFieldAttrs {
  name: string;
  params: Record<string, string>;
  label: string;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    mergeField: {
      /** Inserts a chip at the selection, or replaces the selected chip ("Update merge field content"). */
      insertMergeField: (attrs: MergeFieldAttrs) => ReturnType;
    };
  }
}

function parseParams(raw: string | null): Record<string, string> {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
  } catch {
    return {};
  }
}

export const MergeFieldNode = Node.create({
  name: 'mergeField',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  draggable: true,

  addAttributes() {
    return {
      name: {
        default: '',
        parseHTML: (el) => el.getAttribute(MERGE_CHIP_ATTR) ?? '',
        renderHTML: (attrs) => ({ [MERGE_CHIP_ATTR]: attrs.name }),
      },
      params: {
        default: {},
        parseHTML: (el) => parseParams(el.getAttribute(MERGE_PARAMS_ATTR)),
        renderHTML: (attrs) => ({ [MERGE_PARAMS_ATTR]: JSON.stringify(attrs.params ?? {}) }),
      },
      label: {
        default: '',
        parseHTML: (el) => el.textContent ?? '',
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    return [{ tag: `span[${MERGE_CHIP_ATTR}]` }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes(HTMLAttributes), String(node.attrs.label || node.attrs.name)];
  },

  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('span');
      dom.className = 'gh-merge-chip';
      dom.setAttribute(MERGE_CHIP_ATTR, String(node.attrs.name));
      dom.setAttribute('contenteditable', 'false');
      dom.setAttribute('title', `Merge field ${String(node.attrs.name)}`);
      dom.textContent = String(node.attrs.label || node.attrs.name);
      return { dom };
    };
  },

  addCommands() {
    return {
      insertMergeField:
        (attrs) =>
        ({ chain }) =>
          chain().insertContent({ type: this.name, attrs }).run(),
    };
  },
});
