/**
 * What a name may not hold (issue 30, "Names that deceive"): control characters (C0, DEL, C1), which
 * break a name over lines or hide text in it, and the bidirectional formatting characters (embeddings
 * and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C), which make
 * a name read other than it is: `invoice \u202Efdp.exe` shows as `invoice exe.pdf`. Half a surrogate
 * pair is no text either (a JSON string can hold one), and goes too.
 */
const DROPPED = new RegExp(
  [
    '[\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]',
    '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])',
    '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
  ].join('|'),
  'g',
);

/** Line and paragraph breaks and tabs: a run of them becomes one space, so the words stay apart. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/**
 * A name as it may be kept and shown: breaks become a space, the characters above are dropped, and
 * everything else (letters of any script, marks, symbols, emoji and their joiners) stays as it was.
 * It neither trims nor checks the length: the name's schema does that after it, so a name that is
 * empty once cleaned is refused like an empty name.
 */
export const cleanName = (name: string) => name.replace(BREAKS, ' ').replace(DROPPED, '');
