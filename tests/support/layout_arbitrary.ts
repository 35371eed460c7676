// Random layouts for fast-check: sections with every SPEC §7 option, items,
// separators, and texts built from pieces that hit every rule of the
// reference grammar. Shared by the layout and incremental-render properties.
import fc from "fast-check";
import type {
  AssembledItem,
  AssembledList,
  AssembledSection,
  ListLayout,
  PromptAssembly,
  Stability,
} from "../../mod.ts";

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
  "{{x}}",
  "{{ y }}",
  "{{missing}}",
  "{{ a b }}",
  "text ",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 })
  .map((parts) => parts.join(""));
export const separator = fc.constantFrom(
  "\n\n",
  "\n",
  "",
  " | ",
  "\n\n\n",
  "  ",
);
export const stability = fc.constantFrom<Stability | undefined>(
  undefined,
  "static",
  "session",
  "step",
);
const flags = {
  literal: fc.option(fc.boolean(), { nil: undefined }),
  trim: fc.option(fc.boolean(), { nil: undefined }),
  stability,
};

const items = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("i1", "i2", "i3", "i4", "i5"),
    order: fc.integer({ min: 0, max: 3 }),
    text,
    owner: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
    ...flags,
  }, { requiredKeys: ["name", "order", "text"] }),
  { selector: (item) => item.name, maxLength: 5 },
);

const section = fc.record({
  text,
  separator: fc.option(separator, { nil: undefined }),
  owner: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
  ...flags,
  list: fc.option(
    fc.record({
      separator: fc.option(separator, { nil: undefined }),
      empty: fc.option(fc.constantFrom("", "none", " {{x}} "), {
        nil: undefined,
      }),
      dedupe: fc.option(fc.boolean(), { nil: undefined }),
    }, { requiredKeys: [] }),
    { nil: undefined },
  ),
  items,
}, { requiredKeys: ["text", "items"] });

/** Drops `undefined` fields, as the registry would leave them out. */
function defined<T>(value: object): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as T;
}

export const assembly: fc.Arbitrary<PromptAssembly> = fc.record({
  sections: fc.array(section, { maxLength: 5 }),
  separator: fc.option(separator, { nil: undefined }),
  x: fc.option(fc.constantFrom("X", " {{y}} ", ""), { nil: undefined }),
}).map(({ sections, separator, x }): PromptAssembly => {
  const result: PromptAssembly = {
    sections: sections.map(({ items, list, ...rest }, i) => {
      const s = defined<AssembledSection>({ name: `s${i}`, order: i, ...rest });
      if (list !== undefined) {
        s.list = defined<AssembledList>(list);
        s.items = items.map((item) => defined<AssembledItem>(item));
      }
      return s;
    }),
    tools: [],
    variables: Object.assign(Object.create(null), { x, y: "Y" }),
  };
  if (separator !== undefined) result.separator = separator;
  return result;
});
