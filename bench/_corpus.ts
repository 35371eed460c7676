/**
 * Deterministic prompt corpora for the benchmarks, described as parts so
 * each template engine gets the same text in its own syntax.
 *
 * @module
 */

import { random } from "./_random.ts";

/** A section as alternating static text and variable names. */
export interface SectionParts {
  /** `[text, name, text, …, text]`. */
  parts: string[];
}

/** S sections over V variables, with values. */
export interface Corpus {
  sections: SectionParts[];
  values: Record<string, string>;
}

/** Options of {@linkcode makeCorpus}. */
export interface CorpusOptions {
  sections: number;
  variables: number;
  /** Insert one non-Latin-1 character in the first section. @default {false} */
  nonLatin1?: boolean;
  /** Characters of static text per section. @default {300} */
  sectionChars?: number;
}

const WORDS = (
  "the agent reads each file before it edits and checks every exit code " +
  "keep changes small verify the result report what you saw not what you hoped " +
  "tools run in the working directory output may be truncated after limits"
).split(" ");

function prose(next: () => number, chars: number): string {
  let text = "";
  while (text.length < chars) {
    text += WORDS[Math.floor(next() * WORDS.length)] + " ";
  }
  return text.slice(0, chars);
}

/**
 * About `sectionChars` characters a section; half the sections carry three
 * references; one in ten is empty.
 */
export function makeCorpus(options: CorpusOptions): Corpus {
  const next = random(options.sections * 7919 + options.variables);
  const chars = options.sectionChars ?? 300;
  const values: Record<string, string> = {};
  for (let v = 0; v < options.variables; v++) values[`v${v}`] = `value-${v}`;
  const sections: SectionParts[] = [];
  for (let s = 0; s < options.sections; s++) {
    if (s % 10 === 9) {
      sections.push({ parts: [""] });
      continue;
    }
    if (s % 2 === 1) {
      sections.push({ parts: [prose(next, chars)] });
      continue;
    }
    const parts: string[] = [];
    const piece = Math.floor(chars / 4);
    for (let r = 0; r < 3; r++) {
      parts.push(
        prose(next, piece),
        `v${Math.floor(next() * options.variables)}`,
      );
    }
    parts.push(prose(next, chars - 3 * piece));
    sections.push({ parts });
  }
  if (options.nonLatin1) {
    sections[0]!.parts[0] = "Résumé → " + sections[0]!.parts[0];
  }
  return { sections, values };
}

/** Writes each section in one template syntax: `ref(name)` for a reference. */
export function writeSections(
  corpus: Corpus,
  ref: (name: string) => string,
): string[] {
  return corpus.sections.map(({ parts }) =>
    parts.map((part, i) => (i % 2 === 1 ? ref(part) : part)).join("")
  );
}
