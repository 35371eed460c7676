/**
 * Every renderer the render benchmarks compare, each compiled once from the
 * same corpus. `checkedRenderers` refuses to return a set in which any
 * renderer's output differs from ours by a single byte.
 *
 * @module
 */

import { renderTemplate } from "@langchain/core/prompts";
import { Eta } from "eta";
import Handlebars from "handlebars";
import { template as lodashTemplate } from "lodash-es";
import Mustache from "mustache";
import { renderPrompt } from "../mod.ts";
import { type Corpus, writeSections } from "./corpus.ts";

/** Renders the whole prompt from one set of values. */
export type Render = (values: Record<string, string>) => string;

/** A named renderer, compiled for one corpus. */
export interface Renderer {
  name: string;
  render: Render;
}

/** What every engine's output goes through: trim, drop empty, blank line. */
function joinSections(texts: readonly string[]): string {
  let prompt = "";
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!.trim();
    if (text === "") continue;
    prompt = prompt === "" ? text : prompt + "\n\n" + text;
  }
  return prompt;
}

/** Renders each section with a per-section function, then joins. */
function perSection(
  fns: ((values: Record<string, string>) => string)[],
): Render {
  return (values) => {
    const texts = new Array<string>(fns.length);
    for (let i = 0; i < fns.length; i++) texts[i] = fns[i]!(values);
    return joinSections(texts);
  };
}

/** Ours: `renderPrompt` over an assembly of the corpus. */
export function ours(corpus: Corpus): Render {
  const sections = writeSections(corpus, (name) => `{{${name}}}`).map((
    text,
    i,
  ) => ({
    name: `s${i}`,
    order: i,
    text,
  }));
  return (values) => renderPrompt({ sections, tools: [], variables: values });
}

/**
 * The floor: texts pre-split once into static parts and names (static
 * sections pre-trimmed, empty ones dropped); a render only joins values.
 */
export function floor(corpus: Corpus): Render {
  const split = corpus.sections
    .map(({ parts }) => (parts.length === 1 ? [parts[0]!.trim()] : parts))
    .filter((parts) => parts.length > 1 || parts[0] !== "");
  return (values) => {
    let prompt = "";
    for (let i = 0; i < split.length; i++) {
      const parts = split[i]!;
      let text = parts[0]!;
      if (parts.length > 1) {
        for (let k = 1; k < parts.length; k += 2) {
          text += values[parts[k]!]! + parts[k + 1]!;
        }
        text = text.trim();
        if (text === "") continue;
      }
      prompt = prompt === "" ? text : prompt + "\n\n" + text;
    }
    return prompt;
  };
}

/** A `String.prototype.replace` with a module-scope regex and a callback. */
export function regexReplace(corpus: Corpus): Render {
  const texts = writeSections(corpus, (name) => `{{${name}}}`);
  const reference = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;
  return (values) =>
    joinSections(
      texts.map((text) =>
        text.replace(reference, (_, name: string) => values[name]!)
      ),
    );
}

/** lodash-es `template` with `{{name}}` as its interpolate delimiter. */
export function lodash(corpus: Corpus): Render {
  const options = { interpolate: /\{\{\s*([\w.]+)\s*\}\}/g };
  return perSection(
    writeSections(corpus, (name) => `{{${name}}}`).map((text) =>
      lodashTemplate(text, options)
    ),
  );
}

/** eta, compiled, without escaping or trimming. */
export function eta(corpus: Corpus): Render {
  const engine = new Eta({ autoEscape: false, autoTrim: false, useWith: true });
  const fns = writeSections(corpus, (name) => `<%= ${name} %>`).map((text) =>
    engine.compile(text)
  );
  return perSection(fns.map((fn) => (values) => fn.call(engine, values)));
}

/** handlebars, compiled with `strict` and `noEscape`. */
export function handlebars(corpus: Corpus): Render {
  return perSection(
    writeSections(corpus, (name) => `{{${name}}}`).map((text) =>
      Handlebars.compile(text, { strict: true, noEscape: true })
    ),
  );
}

/** mustache, unescaped references (`{{&name}}`); it caches parsed templates. */
export function mustache(corpus: Corpus): Render {
  const texts = writeSections(corpus, (name) => `{{&${name}}}`);
  for (const text of texts) Mustache.parse(text);
  return perSection(
    texts.map((text) => (values) => Mustache.render(text, values)),
  );
}

/** `@langchain/core` f-string formatting (`{name}`). */
export function langchain(corpus: Corpus): Render {
  return perSection(
    writeSections(corpus, (name) => `{${name}}`).map((text) => (values) =>
      renderTemplate(text, "f-string", values)
    ),
  );
}

/** The renderers in report order: ours first, the floor last. */
export const RENDERERS: readonly {
  name: string;
  make: (corpus: Corpus) => Render;
}[] = [
  { name: "ours", make: ours },
  { name: "String.replace", make: regexReplace },
  { name: "lodash template", make: lodash },
  { name: "eta", make: eta },
  { name: "handlebars", make: handlebars },
  { name: "mustache", make: mustache },
  { name: "langchain f-string", make: langchain },
  { name: "floor", make: floor },
];

/**
 * Compiles every renderer for `corpus` and checks each renders exactly what
 * ours does, before anything is timed.
 *
 * @throws {Error} Naming the first renderer whose output differs.
 */
export function checkedRenderers(
  corpus: Corpus,
): { renderers: Renderer[]; values: Record<string, string> } {
  const values = Object.assign(Object.create(null), corpus.values) as Record<
    string,
    string
  >;
  const renderers = RENDERERS.map(({ name, make }) => ({
    name,
    render: make(corpus),
  }));
  const expected = renderers[0]!.render(values);
  for (const { name, render } of renderers) {
    const actual = render(values);
    if (actual !== expected) {
      let at = 0;
      while (actual[at] === expected[at]) at++;
      throw new Error(
        `${name} renders differently from ours at offset ${at}: ` +
          `${JSON.stringify(actual.slice(at, at + 40))} vs ${
            JSON.stringify(expected.slice(at, at + 40))
          }`,
      );
    }
  }
  return { renderers, values };
}
