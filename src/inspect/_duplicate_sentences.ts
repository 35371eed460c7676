/**
 * Finds one sentence with two owners: the same sentence in two sections or
 * items, or in one of them and a tool description.
 *
 * @module
 */

import { describeOwner } from "../core/errors.ts";
import { sentences } from "./_sentences.ts";
import type { PromptDiagnostic } from "./diagnostics.ts";

/** A place a sentence can be: a section, an item or a tool description. */
export interface SentencePlace {
  readonly label: string;
  readonly owner: string | undefined;
  readonly section?: string;
  readonly item?: string;
  readonly tool?: string;
}

/** Remembers where each sentence was first seen, across calls of `add`. */
export class DuplicateSentences {
  readonly #first = new Map<string, SentencePlace>();
  readonly #reported = new Set<string>();
  readonly #diagnostics: PromptDiagnostic[];

  /** @param diagnostics Where findings are appended. */
  constructor(diagnostics: PromptDiagnostic[]) {
    this.#diagnostics = diagnostics;
  }

  /** Records the sentences of `text` at `place`, reporting any seen elsewhere. */
  add(text: string, place: SentencePlace): void {
    for (const sentence of sentences(text)) {
      const first = this.#first.get(sentence);
      if (first === undefined) {
        this.#first.set(sentence, place);
        continue;
      }
      if (first.label === place.label) continue;
      const pair = `${first.label}\0${place.label}\0${sentence}`;
      if (this.#reported.has(pair)) continue;
      this.#reported.add(pair);
      const diagnostic: PromptDiagnostic = {
        code: "duplicate-sentence",
        severity: "warning",
        message: `The sentence ${JSON.stringify(sentence)} appears in ` +
          `${first.label} of ${describeOwner(first.owner)} and in ` +
          `${place.label} of ${
            describeOwner(place.owner)
          }: one fact, two owners`,
      };
      if (place.owner !== undefined) diagnostic.owner = place.owner;
      if (place.section !== undefined) diagnostic.section = place.section;
      if (place.item !== undefined) diagnostic.item = place.item;
      if (place.tool !== undefined) diagnostic.tool = place.tool;
      this.#diagnostics.push(diagnostic);
    }
  }
}
