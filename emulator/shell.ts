/** The sandbox's and `npm run stack`'s shell words: the provider's (provider/impl/common/shell.ts), one rule for every printed command. */
export { shellWord } from "../provider/impl/common/shell";
