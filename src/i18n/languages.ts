// The languages a contact is addressed in. The closed set itself is a column's set of values
// (src/db/schema/enums.ts); it is re-exported here so texts and modules take it from one place.
import { type Language, languages } from '../db/schema/enums';

export { type Language, languages };

/** Each language's name in itself, as the language links and pickers show it. */
export const languageNames: Record<Language, string> = { nl: 'Nederlands', fr: 'Français', en: 'English' };

/** Whether a code is one of ours (nl, fr, en). */
export const isLanguage = (code: string): code is Language => (languages as readonly string[]).includes(code);

/** The name of a language code (a template's supported language), or the code itself when it is none of ours. */
export function languageName(code: string): string {
  return isLanguage(code) ? languageNames[code] : code;
}
