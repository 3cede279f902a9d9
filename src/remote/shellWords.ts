// Shell words for the remote command and for the commands a1 shows people. Every string that
// reaches a shell is one single-quoted word, whatever it holds: inside single quotes nothing is
// special, and a quote itself is written as close-quote, escaped quote, open-quote.

/** Characters a word may be shown without quotes (a path, user@host, Key=Value). */
const PLAIN_WORD = /^[A-Za-z0-9@%+=:,./_~-]+$/;

/** `s` as one single-quoted POSIX shell word. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** `s` as one shell word for a person to read: bare when nothing in it needs quoting. */
export function shellWord(s: string): string {
  return PLAIN_WORD.test(s) ? s : shellQuote(s);
}
