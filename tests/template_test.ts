// parseTemplate() and templateOf(): the parse of a text into static parts
// and references (docs/syntax.md), its offsets and first malformed group,
// the cache of parses, and locate()'s line:column.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PromptError } from "../src/core/errors.ts";
import {
  parseTemplate,
  type Template,
  templateOf,
} from "../src/render/_template.ts";
import { locate, textError } from "../src/render/_problems.ts";
import { BoundedCache } from "../src/render/_bounded_cache.ts";
import { renderPrompt } from "../src/render/render.ts";

const parts = (text: string) => parseTemplate(text).parts;

describe("parseTemplate()", () => {
  it("keeps a text without groups as one static part", () => {
    assert.deepEqual(parts("plain {single} text"), ["plain {single} text"]);
  });

  it("splits at references, with spaces and tabs around the name", () => {
    assert.deepEqual(parts("a{{x}}b{{ y }}c{{\tgit.branch\t}}"), [
      "a",
      "x",
      "b",
      "y",
      "c",
      "git.branch",
      "",
    ]);
  });

  it("records the offset of each reference's {{", () => {
    assert.deepEqual(parseTemplate("ab{{x}}cd{{y}}").offsets, [2, 9]);
  });

  it("takes the leftmost complete group in a {{{ run", () => {
    assert.deepEqual(parts("{{{x}}}"), ["{", "x", "}"]);
    assert.deepEqual(parts("{{{{x}}}}"), ["{{", "x", "}}"]);
  });

  it("passes lone {{ and }} through verbatim", () => {
    assert.deepEqual(parts("a {{ b"), ["a {{ b"]);
    assert.deepEqual(parts("a }} b"), ["a }} b"]);
    assert.deepEqual(parts("{{ a } b"), ["{{ a } b"]);
    assert.deepEqual(parts("{{a}"), ["{{a}"]);
    assert.deepEqual(parts("}}{{"), ["}}{{"]);
  });

  it("renders \\{{ as a literal {{ that never opens a group", () => {
    assert.deepEqual(parts("\\{{name}}"), ["{{name}}"]);
    assert.deepEqual(parts("${\\{{ github.sha }}"), ["${{{ github.sha }}"]);
    assert.deepEqual(parts("\\{{a}} {{b}}"), ["{{a}} ", "b", ""]);
  });

  it("unescapes \\{{ after a {{ that no }} follows", () => {
    assert.deepEqual(parts("{{{\\{{"), ["{{{{{"]);
    assert.deepEqual(parts("{{ x \\{{ y"), ["{{ x {{ y"]);
  });

  it("leaves a backslash that does not precede {{ alone", () => {
    assert.deepEqual(parts("a\\b \\{ \\}}"), ["a\\b \\{ \\}}"]);
  });

  for (
    const bad of [
      "{{}}",
      "{{ }}",
      "{{a b}}",
      "{{1x}}",
      "{{a..b}}",
      "{{.a}}",
      "{{a.}}",
      "{{ use braces }}",
      "{{\nx\n}}",
      "{{x-y}}",
    ]
  ) {
    it(`records ${JSON.stringify(bad)} as malformed, and its error names the section`, () => {
      const text = `ok\n  ${bad}`;
      const { malformed } = parseTemplate(text);
      assert.deepEqual(malformed, [5, 5 + bad.length]);
      const error = textError({
        text,
        variables: {},
        span: malformed!,
        where: { section: "persona" },
        footer: false,
      });
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "malformed-reference");
      assert.equal(error.section, "persona");
      assert.equal(error.reference, bad);
      assert.equal(error.line, 2);
      assert.equal(error.column, 3);
      assert.equal(error.offset, 5);
      assert.match(error.message, /^Cannot render section "persona": /);
    });
  }

  it("records only the first malformed group, and keeps parsing references after it", () => {
    const template = parseTemplate("{{a}} {{ x y }} {{b}} {{1}}");
    assert.deepEqual(template.malformed, [6, 15]);
    assert.deepEqual(template.offsets, [0, 16]);
    assert.deepEqual(template.parts.filter((_, i) => i % 2 === 1), ["a", "b"]);
    assert.equal(parseTemplate("{{a}}").malformed, undefined);
  });

  it("reads {{\\}} as one backslash in the static text, and nothing else as one", () => {
    assert.deepEqual(parts("C:{{\\}}{{v}}"), ["C:\\", "v", ""]);
    assert.deepEqual(parts("a{{\\}}b{{\\}}"), ["a\\b\\"]);
    assert.deepEqual(parts("{{{\\}}"), ["{\\"]);
    assert.deepEqual(parts("\\{{\\}}"), ["{{\\}}"]);
    for (const bad of ["{{ \\}}", "{{\\\\}}", "{{\\ }}"]) {
      assert.deepEqual(parseTemplate(bad).malformed, [0, bad.length], bad);
    }
  });

  it("completes on floods of braces (linear scan; timed in bench/)", () => {
    for (const unit of ["{", "}", "{{ x", "\\{{", "{{{"]) {
      const text = unit.repeat(200_000);
      assert.equal(parseTemplate(text).parts.length, 1);
    }
  });
});

describe("templateOf()", () => {
  it("returns the cached parse for the same text", () => {
    const cache = new BoundedCache<Template>();
    const text = "cached {{x}}";
    assert.equal(templateOf(text, cache), templateOf(text, cache));
    assert.equal(cache.size, 1);
  });

  it("caches a malformed text, whose error is built per part at render time", () => {
    const cache = new BoundedCache<Template>();
    const text = "bad {{ }}";
    assert.deepEqual(templateOf(text, cache).malformed, [4, 9]);
    assert.equal(cache.size, 1);
  });
});

describe("a render of equal copies of its texts", () => {
  it("renders and fails as a render of the originals does, in any order", () => {
    const text = "Hello {{x}}, " + "a".repeat(40);
    const copy = text.split("").join("");
    const render = (t: string, x?: string) => () =>
      renderPrompt({
        sections: [
          { name: "a", order: 0, text: "first" },
          { name: "b", order: 1, text: t },
        ],
        tools: [],
        variables: x === undefined ? {} : { x },
      });
    const expected = render(text, "X")();
    const error = (() => {
      try {
        render(text)();
      } catch (error) {
        return error as Error;
      }
    })()!;
    for (const t of [copy, text, copy, copy, text]) {
      assert.equal(render(t, "X")(), expected);
      assert.throws(render(t), { message: error.message });
    }
  });
});

describe("templateOf() on long texts", () => {
  it("tells apart long texts of the same length, and finds each again", () => {
    const cache = new BoundedCache<Template>();
    const middle = (x: string) =>
      "a".repeat(5_000) + `{{${x}}}` + "b".repeat(5_000);
    const [x, y] = [
      templateOf(middle("x"), cache),
      templateOf(middle("y"), cache),
    ];
    assert.deepEqual([x.parts[1], y.parts[1]], ["x", "y"]);
    assert.equal(templateOf(middle("y"), cache), y);
    assert.equal(templateOf(middle("x"), cache).parts[1], "x");
  });

  it("rewrites a run of \\{{ in one piece", () => {
    const text = "a " + "\\{{".repeat(100_000) + " b";
    assert.deepEqual(parts(text), ["a " + "{{".repeat(100_000) + " b"]);
  });
});

describe("locate()", () => {
  it("counts lines and UTF-16 columns from 1", () => {
    assert.deepEqual(locate("abc", 0), { line: 1, column: 1 });
    assert.deepEqual(locate("a\nbc\nd", 4), { line: 2, column: 3 });
    assert.deepEqual(locate("a\nbc\nd", 5), { line: 3, column: 1 });
    assert.deepEqual(locate("😀x", 2), { line: 1, column: 3 });
  });
});
