/**
 * Every renderer the render benchmarks compare, each compiled once from the
 * same section texts. Peers run in the configuration their documentation
 * recommends for speed (lodash `variable`, eta `useWith: false`, doT with
 * string appends) and get the floor's edge plan (`_floor.ts`): static edges
 * trimmed at compile time, empty static sections dropped, and a reference
 * at an edge written with `.trimStart()` / `.trimEnd()` in the engine's own
 * expression syntax, so that no section's output is trimmed at render time
 * (trimming a concatenation flattens it). Engines without expressions
 * (handlebars, mustache, langchain, `String.replace`) trim their output where
 * a reference sits at an edge. `checkedRenderers` refuses to return a set in
 * which any renderer's output differs from ours by a single byte.
 *
 * @module
 */

import { renderTemplate } from "@langchain/core/prompts";
import { Eta } from "eta";
import Handlebars from "handlebars";
import { template as lodashTemplate } from "lodash-es";
import Mustache from "mustache";
import { renderPrompt } from "@dsh/system-prompt";
import { compileDot } from "./_peer_dot.ts";
import {
  compileTexts,
  type Piece,
  renderPieces,
  type Values,
} from "./_floor.ts";
import { assertSame, type EdgeTrim, writePiece } from "./_check.ts";
import { ownSite } from "./_bench.ts";

/** Renders the whole prompt from one set of values. */
export type Render = (values: Values) => string;

/** A named renderer, compiled for one list of section texts. */
export interface Renderer {
  name: string;
  render: Render;
}

/** One section (the floor's piece) compiled by an engine, trims included. */
export type Compile = (piece: Piece) => (values: Values) => string;

/**
 * Joins compiled sections as ours does: blank-line separated, empties out.
 * Each peer gets a join loop of its own (`ownSite`), so that its call into
 * its compiled sections is not shared with the other peers'.
 */
function joinCompiled(texts: readonly string[], compile: Compile): Render {
  const pieces = compileTexts(texts).filter((p): p is Piece => p !== undefined);
  return ownSite(
    (fns: ((values: Values) => string)[]) => (values: Values) => {
      let prompt = "";
      for (let i = 0; i < fns.length; i++) {
        const text = fns[i]!(values);
        if (text === "") continue;
        prompt = prompt === "" ? text : prompt + "\n\n" + text;
      }
      return prompt;
    },
    pieces.map(compile),
  );
}

/** A peer that compiles each section with `compile`. */
export function peer(compile: Compile): (texts: readonly string[]) => Render {
  return (texts) => joinCompiled(texts, compile);
}

/**
 * An engine without expressions: `compile` gets the piece's text in its
 * syntax, and the output is trimmed where a reference sits at an edge.
 */
function trimmedOutput(
  compile: (parts: readonly string[]) => (values: Values) => string,
): Compile {
  return (piece) => {
    const fn = compile(piece.parts);
    if (piece.trimStart) {
      return piece.trimEnd
        ? (values) => fn(values).trim()
        : (values) => fn(values).trimStart();
    }
    return piece.trimEnd ? (values) => fn(values).trimEnd() : fn;
  };
}

/** Writes `parts` with `ref(name)` for each reference. */
function write(parts: readonly string[], ref: (name: string) => string) {
  let text = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    text += ref(parts[k]!) + parts[k + 1]!;
  }
  return text;
}

const call = (trim: EdgeTrim) => trim === "" ? "" : `.${trim}()`;

/** Ours: `renderPrompt` over an assembly of the texts and the values. */
export function ours(texts: readonly string[]): Render {
  const sections = texts.map((text, i) => ({ name: `s${i}`, order: i, text }));
  return (values) => renderPrompt({ sections, tools: [], variables: values });
}

/** The true floor: see `_floor.ts`. */
export function floor(texts: readonly string[]): Render {
  const pieces = compileTexts(texts);
  return (values) => renderPieces(pieces, values);
}

const REFERENCE_REGEX = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

/** `String.prototype.replace` with a module-scope regex and a callback. */
export const regexReplace: (texts: readonly string[]) => Render = peer(
  trimmedOutput((parts) => {
    const text = write(parts, (name) => `{{${name}}}`);
    return (values) =>
      text.replace(REFERENCE_REGEX, (_, name: string) => values[name]!);
  }),
);

/**
 * lodash `template` with the `variable` option, which its docs recommend so
 * the compiled function does not run under `with`.
 */
export const compileLodash: Compile = (piece) =>
  lodashTemplate(
    writePiece(piece, (name, trim) => `{{it.${name}${call(trim)}}}`),
    { interpolate: /\{\{([\s\S]+?)\}\}/g, variable: "it" },
  );

const etaEngine = new Eta({
  autoEscape: false,
  autoTrim: false,
  useWith: false,
});

/** eta, compiled, `useWith: false` (reads `it.name`), no escaping or trim. */
export const compileEta: Compile = (piece) => {
  const fn = etaEngine.compile(
    writePiece(piece, (name, trim) => `<%= it.${name}${call(trim)} %>`),
  );
  return (values) => fn.call(etaEngine, values);
};

/** handlebars, compiled with `strict` and `noEscape`. */
export const handlebars: (texts: readonly string[]) => Render = peer(
  trimmedOutput((parts) =>
    Handlebars.compile(write(parts, (name) => `{{${name}}}`), {
      strict: true,
      noEscape: true,
    })
  ),
);

/** mustache, unescaped references (`{{&name}}`); it caches parsed templates. */
export const mustache: (texts: readonly string[]) => Render = peer(
  trimmedOutput((parts) => {
    const text = write(parts, (name) => `{{&${name}}}`);
    Mustache.parse(text);
    return (values) => Mustache.render(text, values);
  }),
);

/** `@langchain/core` f-string formatting (`{name}`). */
export const langchain: (texts: readonly string[]) => Render = peer(
  trimmedOutput((parts) => {
    const text = write(parts, (name) => `{${name}}`);
    return (values) => renderTemplate(text, "f-string", values);
  }),
);

/** The peers whose fast configuration the targets name, by report name. */
export const FAST_PEERS: Readonly<Record<string, Compile>> = {
  "lodash template": compileLodash,
  eta: compileEta,
  doT: compileDot,
};

/** The renderers in report order: ours first, the floor last. */
export const RENDERERS: readonly {
  name: string;
  make: (texts: readonly string[]) => Render;
}[] = [
  { name: "ours", make: ours },
  { name: "String.replace", make: regexReplace },
  { name: "lodash template", make: peer(compileLodash) },
  { name: "eta", make: peer(compileEta) },
  { name: "doT", make: peer(compileDot) },
  { name: "handlebars", make: handlebars },
  { name: "mustache", make: mustache },
  { name: "langchain f-string", make: langchain },
  { name: "floor", make: floor },
];

/**
 * Compiles every renderer for `texts` and checks, on every value set of
 * `pool`, that each renders exactly what ours does, before anything is
 * timed.
 */
export function checkedRenderers(
  texts: readonly string[],
  pool: readonly Values[],
): Renderer[] {
  const renderers = RENDERERS.map(({ name, make }) => ({
    name,
    render: make(texts),
  }));
  for (const values of pool) {
    const expected = renderers[0]!.render(values);
    for (const { name, render } of renderers) {
      assertSame(name, render(values), expected);
    }
  }
  return renderers;
}
