// A reference renderer for layouts: docs/layout.md (separators, trim, literal,
// lists with heading, items, dedupe, empty; headingSeparator, item
// separators, footer, nested lists) written as plainly as possible, on top
// of the tokenizer of reference_renderer.ts (docs/syntax.md), recursively, with no speed
// tricks. It agrees with renderPrompt and renderContext or the layout
// property tests fail.

import type { AssembledItem, PromptAssembly } from "../../src/core/types.ts";
import { tokenize } from "./reference_renderer.ts";

export type LayoutResult =
  | { ok: true; text: string }
  | {
    ok: false;
    code: string;
    section?: string;
    context?: string;
    item?: string;
  };

class Failure {
  item: string | undefined;
  constructor(readonly code: string) {}
}

/** One text: interpolated unless literal, trimmed unless trim is false. */
export function renderOne(
  text: string,
  literal: boolean | undefined,
  trim: boolean | undefined,
  variables: Record<string, string | undefined>,
): string {
  let out = "";
  if (literal === true) out = text;
  else {
    // The first problem in the text wins, as in the reference renderer of docs/syntax.md.
    for (const token of tokenize(text)) {
      if ("malformedAt" in token) throw new Failure("malformed-reference");
      if ("text" in token) out += token.text;
      else if (!Object.prototype.hasOwnProperty.call(variables, token.name)) {
        throw new Failure("unknown-variable");
      } else if (variables[token.name] === undefined) {
        throw new Failure("missing-value");
      } else out += variables[token.name];
    }
  }
  return trim === false ? out : out.trim();
}

/**
 * A part: its text, or (a list) the heading, the items that remain, each
 * after its separator, and the footer; `empty` (or nothing) when no item
 * remains. An error inside an item is that item's (the innermost).
 */
export function renderPart(
  part: AssembledItem,
  variables: Record<string, string | undefined>,
  isItem = false,
): string {
  try {
    const { literal, trim, list } = part;
    if (list === undefined) {
      return renderOne(part.text, literal, trim, variables);
    }
    const heading = renderOne(part.text, literal, trim, variables);
    const kept: { text: string; separator: string | undefined }[] = [];
    for (const item of part.items ?? []) {
      const text = renderPart(item, variables, true);
      if (text === "") continue;
      if (list.dedupe === true && kept.some((k) => k.text === text)) continue;
      kept.push({ text, separator: item.separator });
    }
    const footer = list.footer === undefined
      ? ""
      : renderOne(list.footer, literal, trim, variables);
    if (kept.length === 0) return list.empty ?? "";
    const separator = list.separator ?? "\n";
    let out = heading === ""
      ? ""
      : heading + (list.headingSeparator ?? separator);
    kept.forEach((k, i) => {
      if (i > 0) out += k.separator ?? separator;
      out += k.text;
    });
    if (footer !== "") out += (list.footerSeparator ?? separator) + footer;
    return out;
  } catch (error) {
    if (error instanceof Failure && isItem && error.item === undefined) {
      error.item = part.name;
    }
    throw error;
  }
}

function renderSequence(
  parts: readonly AssembledItem[],
  separator: string,
  variables: Record<string, string | undefined>,
  kind: "section" | "context",
): LayoutResult {
  let out = "";
  let any = false;
  for (const part of parts) {
    let text: string;
    try {
      text = renderPart(part, variables, false);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      const failed: LayoutResult = { ok: false, code: error.code };
      failed[kind] = part.name;
      if (error.item !== undefined) failed.item = error.item;
      return failed;
    }
    if (text === "") continue;
    if (any) out += part.separator ?? separator;
    out += text;
    any = true;
  }
  return { ok: true, text: out };
}

/** Renders an assembly's sections the way docs/layout.md say, or names the first error. */
export function layoutReferenceRender(assembly: PromptAssembly): LayoutResult {
  return renderSequence(
    assembly.sections,
    assembly.separator ?? "\n\n",
    assembly.variables,
    "section",
  );
}

/** Renders an assembly's contexts the same way, joined with a blank line by default. */
export function contextReferenceRender(assembly: PromptAssembly): LayoutResult {
  return renderSequence(
    assembly.contexts ?? [],
    "\n\n",
    assembly.variables,
    "context",
  );
}
