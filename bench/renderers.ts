/**
 * Every renderer the render benchmarks compare, each compiled once from the
 * same section texts. Peers run in the configuration their documentation
 * recommends for speed (lodash `variable`, eta `useWith: false`, doT with
 * string appends) and get the floor's edge plan (static edges trimmed at
 * compile time, empty static sections dropped), so they differ from the floor
 * only in how they interpolate. `checkedRenderers` refuses to return a set in
 * which any renderer's output differs from ours by a single byte.
 *
 * @module
 */

import { renderTemplate } from "@langchain/core/prompts";
import { Eta } from "eta";
import Handlebars from "handlebars";
import { template as lodashTemplate } from "lodash-es";
import Mustache from "mustache";
import { renderFull } from "./full_render.ts";
import { compileDot } from "./peer_dot.ts";
import {
  compileTexts,
  type Piece,
  renderPieces,
  type Values,
} from "./floor.ts";

/** Renders the whole prompt from one set of values. */
export type Render = (values: Values) => string;

/** A named renderer, compiled for one list of section texts. */
export interface Renderer {
  name: string;
  render: Render;
}

/** One section's text in an engine's syntax, compiled by that engine. */
export type Compile = (
  parts: readonly string[],
) => (values: Values) => string;

/** Writes `parts` with `ref(name)` for each reference. */
function write(parts: readonly string[], ref: (name: string) => string) {
  let text = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    text += ref(parts[k]!) + parts[k + 1]!;
  }
  return text;
}

/**
 * A peer over the floor's edge plan: each piece compiled by the engine,
 * trimmed at run time only where a reference sits at an edge.
 */
export function peer(compile: Compile): (texts: readonly string[]) => Render {
  return (texts) => {
    const pieces = compileTexts(texts).filter((p): p is Piece =>
      p !== undefined
    );
    const fns = pieces.map((piece) => compile(piece.parts));
    return (values) => {
      let prompt = "";
      for (let i = 0; i < fns.length; i++) {
        const piece = pieces[i]!;
        let text = fns[i]!(values);
        if (piece.trimStart) {
          text = piece.trimEnd ? text.trim() : text.trimStart();
        } else if (piece.trimEnd) text = text.trimEnd();
        if (text === "") continue;
        prompt = prompt === "" ? text : prompt + "\n\n" + text;
      }
      return prompt;
    };
  };
}

/**
 * Ours: `renderPrompt` over an assembly of the texts, every section built
 * again (no reuse of the last render: see `full_render.ts`).
 */
export function ours(texts: readonly string[]): Render {
  const sections = texts.map((text, i) => ({ name: `s${i}`, order: i, text }));
  return (values) => renderFull({ sections, tools: [], variables: values });
}

/** The true floor: see `floor.ts`. */
export function floor(texts: readonly string[]): Render {
  const pieces = compileTexts(texts);
  return (values) => renderPieces(pieces, values);
}

const REFERENCE_REGEX = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

/** `String.prototype.replace` with a module-scope regex and a callback. */
export const regexReplace: (texts: readonly string[]) => Render = peer(
  (parts) => {
    const text = write(parts, (name) => `{{${name}}}`);
    return (values) =>
      text.replace(REFERENCE_REGEX, (_, name: string) => values[name]!);
  },
);

/**
 * lodash `template` with the `variable` option, which its docs recommend so
 * the compiled function does not run under `with`.
 */
export const compileLodash: Compile = (parts) =>
  lodashTemplate(write(parts, (name) => `{{it.${name}}}`), {
    interpolate: /\{\{([\s\S]+?)\}\}/g,
    variable: "it",
  });

const etaEngine = new Eta({
  autoEscape: false,
  autoTrim: false,
  useWith: false,
});

/** eta, compiled, `useWith: false` (reads `it.name`), no escaping or trim. */
export const compileEta: Compile = (parts) => {
  const fn = etaEngine.compile(write(parts, (name) => `<%= it.${name} %>`));
  return (values) => fn.call(etaEngine, values);
};

/** handlebars, compiled with `strict` and `noEscape`. */
export const handlebars: (texts: readonly string[]) => Render = peer((parts) =>
  Handlebars.compile(write(parts, (name) => `{{${name}}}`), {
    strict: true,
    noEscape: true,
  })
);

/** mustache, unescaped references (`{{&name}}`); it caches parsed templates. */
export const mustache: (texts: readonly string[]) => Render = peer((parts) => {
  const text = write(parts, (name) => `{{&${name}}}`);
  Mustache.parse(text);
  return (values) => Mustache.render(text, values);
});

/** `@langchain/core` f-string formatting (`{name}`). */
export const langchain: (texts: readonly string[]) => Render = peer(
  (parts) => {
    const text = write(parts, (name) => `{${name}}`);
    return (values) => renderTemplate(text, "f-string", values);
  },
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
 * Throws unless `actual` equals `expected`, naming `who` and the first
 * differing offset: every compared implementation is checked this way
 * before anything is timed.
 */
export function assertSame(
  who: string,
  actual: string,
  expected: string,
): void {
  if (actual === expected) return;
  let at = 0;
  while (actual[at] === expected[at]) at++;
  throw new Error(
    `${who} renders differently from ours at offset ${at}: ` +
      `${JSON.stringify(actual.slice(at, at + 40))} vs ${
        JSON.stringify(expected.slice(at, at + 40))
      }`,
  );
}

/**
 * Compiles every renderer (or those named in `only`) for `texts` and checks
 * each renders exactly what ours does, before anything is timed.
 */
export function checkedRenderers(
  texts: readonly string[],
  variables: Values,
  only?: readonly string[],
): { renderers: Renderer[]; values: Values } {
  const values = Object.assign(Object.create(null), variables) as Values;
  const renderers = RENDERERS.filter(({ name }) =>
    only === undefined || name === "ours" || only.includes(name)
  ).map(({ name, make }) => ({ name, render: make(texts) }));
  const expected = renderers[0]!.render(values);
  for (const { name, render } of renderers) {
    assertSame(name, render(values), expected);
  }
  return { renderers, values };
}
