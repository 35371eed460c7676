// Random layouts for fast-check: sections (and, when nested, context entries)
// with every docs/layout.md option, items (when nested, lists two deep),
// separators, and texts built from pieces that hit every rule of the
// reference grammar. Shared by the layout and memo properties.
import fc from "fast-check";
import type {
  AssembledItem,
  AssembledList,
  AssembledSection,
  PromptAssembly,
  Stability,
} from "../../src/core/types.ts";

const PIECES = [
  " ",
  "\n",
  "\t",
  "a",
  "b",
  "😀",
  "{",
  "}}",
  "\\{{",
  "{{\\}}",
  "{{x}}",
  "{{ y }}",
  "{{missing}}",
  "{{ a b }}",
  "text ",
];
/** Pieces that make a render throw. */
const FAILING = new Set(["{{missing}}", "{{ a b }}"]);
const textOf = (pieces: string[]): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 6 })
    .map((parts) => parts.join(""));
export const text: fc.Arbitrary<string> = textOf(PIECES);
/** Texts that render (with the arbitrary's variables). */
export const validText: fc.Arbitrary<string> = textOf(
  PIECES.filter((p) => !FAILING.has(p)),
);
export const separator: fc.Arbitrary<string> = fc.constantFrom(
  "\n\n",
  "\n",
  "",
  " | ",
  "\n\n\n",
  "  ",
);
export const stability: fc.Arbitrary<Stability | undefined> = fc.constantFrom<
  Stability | undefined
>(undefined, "static", "session", "step");
const flags = {
  literal: fc.option(fc.boolean(), { nil: undefined }),
  trim: fc.option(fc.boolean(), { nil: undefined }),
  stability,
  owner: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
};

/** What a layout may use: its texts, and whether lists nest (with heading and item separators, footers, and contexts too). */
interface Shape {
  readonly text: fc.Arbitrary<string>;
  readonly nested: boolean;
}
const optional = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.option(arbitrary, { nil: undefined });

const listOf = ({ text, nested }: Shape): fc.Arbitrary<AssembledList> =>
  fc.record({
    separator: optional(separator),
    empty: optional(fc.constantFrom("", "none", " {{x}} ")),
    dedupe: optional(fc.boolean()),
    ...(nested
      ? {
        headingSeparator: optional(separator),
        footer: optional(fc.oneof(text, fc.constantFrom("</list>", " {{x}} "))),
        footerSeparator: optional(separator),
      }
      : {}),
  }, { requiredKeys: [] }).map((l) => defined<AssembledList>(l));

/** Drops `undefined` fields, as the registry would leave them out. */
function defined<T>(value: object): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as T;
}

/** Items of a list `depth` levels from the top; when nested, an item may be a list itself. */
function items(shape: Shape, depth: number): fc.Arbitrary<AssembledItem[]> {
  const plain = fc.record({
    name: fc.constantFrom("i1", "i2", "i3", "i4", "i5"),
    order: fc.integer({ min: 0, max: 3 }),
    text: shape.text,
    ...flags,
    ...(shape.nested ? { separator: optional(separator) } : {}),
  }, { requiredKeys: ["name", "order", "text"] });
  // One item in four is a nested list (only one level down from the top).
  const leaf = !shape.nested || depth >= 2;
  const item = leaf ? plain.map((i) => defined<AssembledItem>(i)) : fc
    .tuple(plain, fc.nat(3), listOf(shape))
    .chain(([base, roll, sublist]) =>
      roll !== 0
        ? fc.constant(defined<AssembledItem>(base))
        : items(shape, depth + 1).map((children) =>
          defined<AssembledItem>({ ...base, list: sublist, items: children })
        )
    );
  return fc.uniqueArray(item, { selector: (i) => i.name, maxLength: 4 });
}

function parts(shape: Shape, prefix: string) {
  const part = fc.record({
    text: shape.text,
    ...flags,
    separator: optional(separator),
    list: fc.option(listOf(shape), { nil: undefined }),
    items: items(shape, 1),
  }, { requiredKeys: ["text", "items"] });
  return fc.array(part, { maxLength: 4 }).map((all) =>
    all.map(({ items, list, ...rest }, i) => {
      const s = defined<AssembledSection>({
        name: `${prefix}${i}`,
        order: i,
        ...rest,
      });
      if (list !== undefined) {
        s.list = list;
        s.items = items;
      }
      return s;
    })
  );
}

function assemblyOf(shape: Shape): fc.Arbitrary<PromptAssembly> {
  return fc.record({
    sections: parts(shape, "s"),
    contexts: shape.nested
      ? fc.option(parts(shape, "c"), { nil: undefined })
      : fc.constant(undefined),
    separator: fc.option(separator, { nil: undefined }),
    x: fc.option(fc.constantFrom("X", " {{y}} ", "", "a\\"), {
      nil: undefined,
    }),
  }).map(({ sections, contexts, separator, x }): PromptAssembly => {
    const result: PromptAssembly = {
      sections,
      tools: [],
      variables: Object.assign(Object.create(null), { x, y: "Y" }),
    };
    if (contexts !== undefined) result.contexts = contexts;
    if (separator !== undefined) result.separator = separator;
    return result;
  });
}

/** An assembly of flat layouts (sections, flat lists); `x` may be valueless. */
export const assembly: fc.Arbitrary<PromptAssembly> = assemblyOf({
  text,
  nested: false,
});
/** Sections and contexts of every layout, lists nested two deep. */
export const layouts: fc.Arbitrary<PromptAssembly> = assemblyOf({
  text,
  nested: true,
});
/** The same without the pieces that make a render throw (`x` may still be valueless). */
export const validLayouts: fc.Arbitrary<PromptAssembly> = assemblyOf({
  text: validText,
  nested: true,
});
