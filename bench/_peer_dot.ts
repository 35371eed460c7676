/**
 * doT, on its own so the cold start bench can load it alone.
 *
 * @module
 */

import doT from "dot";
import { type EdgeTrim, writePiece } from "./_check.ts";
import type { Piece, Values } from "./_floor.ts";

const settings = { ...doT.templateSettings, strip: false, append: true };
const call = (trim: EdgeTrim) => trim === "" ? "" : `.${trim}()`;

/**
 * doT with string appends (its fast default) and `strip: false`, without
 * which it would collapse the prompt's whitespace; an edge value trimmed in
 * doT's expression (`{{=it.name.trimStart()}}`), as `_floor.ts` plans.
 */
export function compileDot(piece: Piece): (values: Values) => string {
  return doT.template(
    writePiece(piece, (name, trim) => `{{=it.${name}${call(trim)}}}`),
    settings,
  );
}
