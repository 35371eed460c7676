// A reference renderer for the property tests: the grammar of docs/syntax.md written
// as plainly as possible, one character at a time, with no speed tricks.
// It agrees with renderPrompt or the property tests fail.

export type ReferenceResult =
  | { ok: true; text: string }
  | { ok: false; code: string; section: string; offset: number };

type Token = { text: string } | { name: string; offset: number };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Splits one section text into static text and references; at the first
 * malformed group it stops, and the group is the last token.
 */
export function tokenize(text: string): (Token | { malformedAt: number })[] {
  const tokens: (Token | { malformedAt: number })[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("\\{{", i)) {
      literal += "{{";
      i += 3;
      continue;
    }
    if (text.startsWith("{{", i)) {
      let j = i + 2;
      while (j < text.length && text[j] !== "{" && text[j] !== "}") j++;
      if (text.startsWith("}}", j) && text.slice(i + 2, j) === "\\") {
        literal += "\\"; // `{{\}}` is one backslash
        i = j + 2;
        continue;
      }
      if (text.startsWith("}}", j)) {
        const name = text.slice(i + 2, j).replace(/^[ \t]+/, "").replace(
          /[ \t]+$/,
          "",
        );
        if (!NAME.test(name)) {
          tokens.push({ text: literal }, { malformedAt: i });
          return tokens;
        }
        tokens.push({ text: literal }, { name, offset: i });
        literal = "";
        i = j + 2;
        continue;
      }
    }
    literal += text[i];
    i++;
  }
  tokens.push({ text: literal });
  return tokens;
}

/**
 * Renders sections the way docs/syntax.md says, or names the first error: the
 * first problem in the text of the first section that has one.
 */
export function referenceRender(
  sections: { name: string; text: string }[],
  variables: Record<string, string | undefined>,
): ReferenceResult {
  const rendered: string[] = [];
  for (const section of sections) {
    const tokens = tokenize(section.text);
    let text = "";
    for (const token of tokens) {
      if ("malformedAt" in token) {
        return {
          ok: false,
          code: "malformed-reference",
          section: section.name,
          offset: token.malformedAt,
        };
      }
      if ("text" in token) {
        text += token.text;
        continue;
      }
      if (!Object.prototype.hasOwnProperty.call(variables, token.name)) {
        return {
          ok: false,
          code: "unknown-variable",
          section: section.name,
          offset: token.offset,
        };
      }
      const value = variables[token.name];
      if (value === undefined) {
        return {
          ok: false,
          code: "missing-value",
          section: section.name,
          offset: token.offset,
        };
      }
      text += value;
    }
    text = text.trim();
    if (text !== "") rendered.push(text);
  }
  return { ok: true, text: rendered.join("\n\n") };
}
