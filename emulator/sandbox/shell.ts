/**
 * Words of the shell commands printed for a user to paste (the sandbox's `pulumi config set` lines,
 * `npm run stack --keep`'s commands): a word goes as it is when it is plain, else in single quotes.
 */

/** A word the shell reads as it is, quoted only when it must be. */
export const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
