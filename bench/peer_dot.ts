/**
 * doT, on its own so the cold start bench can load it alone.
 *
 * @module
 */

import doT from "dot";
import type { Values } from "./floor.ts";

const settings = { ...doT.templateSettings, strip: false, append: true };

/**
 * doT with string appends (its fast default) and `strip: false`, without
 * which it would collapse the prompt's whitespace; `parts` as in `floor.ts`.
 */
export function compileDot(
  parts: readonly string[],
): (values: Values) => string {
  let text = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    text += `{{=it.${parts[k]}}}` + parts[k + 1]!;
  }
  return doT.template(text, settings);
}
