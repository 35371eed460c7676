/**
 * Text as HTML: the inspector page writes every string it did not author
 * (prompt text, names, owners) through {@linkcode escapeHtml}.
 *
 * @module
 */

const SPECIAL = /[&<>"'\r]/g;
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  // The HTML parser turns a raw CR (and CRLF) into LF; a reference survives.
  "\r": "&#13;",
};

/**
 * `text` safe in HTML text and in a quoted attribute value: `&`, `<`, `>`,
 * both quotes and carriage returns written as references, so `</script>`,
 * `<!--` and `"` stay text wherever they land.
 */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (char) => ENTITIES[char]!);
}
