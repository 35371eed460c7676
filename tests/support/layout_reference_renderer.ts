// A reference renderer for layouts: SPEC §7.1–7.3 written as plainly as
// possible, on top of the §4 tokenizer of reference_renderer.ts. It agrees
// with renderPrompt or the layout property tests fail.

import type { PromptAssembly } from "../../mod.ts";
import { tokenize } from "./reference_renderer.ts";

export type LayoutResult =
  | { ok: true; text: string }
  | { ok: false; code: string; section: string; item?: string };

class Failure {
  constructor(readonly code: string) {}
}

/** One text: interpolated unless literal (§7.2), trimmed unless trim is false. */
function renderOne(
  text: string,
  literal: boolean | undefined,
  trim: boolean | undefined,
  variables: Record<string, string | undefined>,
): string {
  let out = "";
  if (literal === true) out = text;
  else {
    // The first problem in the text wins, as in the §4 reference renderer.
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

/** Renders an assembly the way SPEC §7 says, or names the first error. */
export function layoutReferenceRender(assembly: PromptAssembly): LayoutResult {
  const variables = assembly.variables;
  let prompt = "";
  let anyRendered = false;
  for (const section of assembly.sections) {
    let text: string;
    let item: string | undefined;
    try {
      if (section.list === undefined) {
        text = renderOne(
          section.text,
          section.literal,
          section.trim,
          variables,
        );
      } else {
        const heading = renderOne(
          section.text,
          section.literal,
          section.trim,
          variables,
        );
        const kept: string[] = [];
        for (const each of section.items ?? []) {
          item = each.name;
          const rendered = renderOne(
            each.text,
            each.literal,
            each.trim,
            variables,
          );
          item = undefined;
          if (rendered === "") continue;
          if (section.list.dedupe === true && kept.includes(rendered)) continue;
          kept.push(rendered);
        }
        if (kept.length === 0) text = section.list.empty ?? "";
        else {
          const parts = heading === "" ? kept : [heading, ...kept];
          text = parts.join(section.list.separator ?? "\n");
        }
      }
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      const failed: LayoutResult = {
        ok: false,
        code: error.code,
        section: section.name,
      };
      if (item !== undefined) failed.item = item;
      return failed;
    }
    if (text === "") continue;
    if (anyRendered) {
      prompt += section.separator ?? assembly.separator ?? "\n\n";
    }
    prompt += text;
    anyRendered = true;
  }
  return { ok: true, text: prompt };
}
